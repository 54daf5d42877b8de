import {
  IDENTITY_LISTS,
  MAX_IDENTITY_ENTRIES,
  readIdentityList,
  type IdentityList,
  type SpacedList,
} from '../../common/field-rules/identity-values.js';
/*
 * What the scanner converters produce: the items a JSON body would carry, each with the name
 * that error messages give it. They are not checked here: the ingestion's validator judges
 * them as it judges a JSON body's, so that every format obeys the same field rules.
 */

import type { AssetField, AssetFieldValues } from '../../database/tables/assets.table.js';

import type { ScannerFormat } from '../../common/ingest-formats.js';

export type { ScannerFormat };

export interface RawService {
  /** A number when the scanner wrote digits, else the text as written, for the validator. */
  port: number | string;
  protocol: string;
  name: string | null;
  product: string | null;
  version: string | null;
}

export interface RawVulnerability {
  id: string;
  score: number | string | null;
  summary: string | null;
  publishedDate: string | null;
}

/**
 * An asset item, without `id` for the XML formats: it is matched by `ip`. Its fields are those
 * of the assets table, as the scanner wrote them: a number where the scanner wrote digits in a
 * numeric field, else text, for the validator to judge.
 */
export type RawAssetItem = {
  [F in AssetField]?: AssetFieldValues[F] extends string | null ? string : number | string;
} & {
  id?: string;
  services?: RawService[];
  vulnerabilities?: RawVulnerability[];
} & Partial<Record<SpacedList, string[]>>;

/**
 * The identity lists of a scanned host, as an item carries them: only the values the lists
 * accept (a scanner's odd host name is left out rather than refuse the scan), each once, at
 * most as many as a list holds, an empty list left out.
 */
export function scannedIdentity(lists: {
  addresses?: readonly (string | undefined)[];
  macAddresses?: readonly (string | undefined)[];
  hostnames?: readonly (string | undefined)[];
}): Partial<Record<IdentityList, string[]>> {
  const identity: Partial<Record<IdentityList, string[]>> = {};
  for (const list of IDENTITY_LISTS) {
    const values = new Set<string>();
    for (const value of lists[list] ?? []) {
      if (value !== undefined && 'values' in readIdentityList(list, [value], list))
        values.add(value);
    }
    if (values.size > 0) identity[list] = [...values].slice(0, MAX_IDENTITY_ENTRIES);
  }
  return identity;
}

/**
 * A relation between two assets of the same payload, named by their ip: the assets of a
 * scanner body have no `id` (they are matched by ip), and every ip a relation names is the ip
 * of exactly one asset item of the payload.
 */
export interface RawRelationItem {
  sourceAssetIp: string;
  targetAssetIp: string;
  type: 'route';
  direction: 'mono';
}

export type ConvertedItem =
  | {
      part: 'assets';
      /** The item's name in error messages: `hosts[3]`, `hosts[3].trace.hop[0]`, `line 7`. */
      path: string;
      value: RawAssetItem;
    }
  | { part: 'relations'; path: string; value: RawRelationItem };

/**
 * A converter of one body, fed its bytes in order. Every asset comes before any relation.
 * Throws FormatError for a body it refuses as a whole.
 */
export interface ScannerConverter {
  /** The body's format; null while an XML body's root element is not read yet. */
  readonly format: ScannerFormat | null;
  /** The next bytes of the body; returns the items they completed (often none). */
  write(chunk: Uint8Array | string): ConvertedItem[];
  /**
   * The body is over: the items left (for Nmap, the trace hops' assets, then relations; for
   * the formats gathered by address, every asset), handed over one by one as they are taken.
   */
  end(): Iterable<ConvertedItem>;
}
