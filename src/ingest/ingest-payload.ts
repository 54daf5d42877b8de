import { BadRequestException } from '@nestjs/common';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { MAX_ASSET_ID_LENGTH } from '../assets/asset.entity.js';
import { isAssetIp } from '../common/validators/asset-fields.validator.js';
import { isPortList } from '../common/validators/port-list.validator.js';
import type { JsonSlice } from './json-worker.js';
import { CHECK_ITEMS_PER_TURN } from './ingest-tuning.js';

export type IngestMode = 'merge' | 'append' | 'replace';

/** The asset fields an item may carry; absent ones are left out, not null. */
export interface IngestAssetFields {
  name?: string;
  ip?: string | null;
  type?: string | null;
  vendor?: string | null;
  model?: string | null;
  risk_score?: number | null;
  site?: string | null;
  os_version?: string | null;
}

export interface IngestVulnerability {
  id: string;
  score: number | null;
  summary: string | null;
  publishedDate: string | null;
}

export interface IngestAsset {
  /** Position in the payload, for error messages. */
  index: number;
  id?: string;
  fields: IngestAssetFields;
  vulnerabilities?: IngestVulnerability[];
}

export interface IngestRelation {
  index: number;
  sourceAssetId: string;
  targetAssetId: string;
  type: string;
  direction?: 'bi' | 'mono';
  protocol?: string | null;
  toPorts?: string | null;
}

export interface IngestPayload {
  mode: IngestMode;
  deleteStale: boolean;
  source: string | null;
  /**
   * The assets, checked slice by slice as they are read, so that each slice can be planned
   * (and on SQLite written) before the next is read. To be taken once, before the relations.
   */
  assets: AsyncIterable<IngestAsset[]>;
  /** The relations, checked slice by slice as they are read, once the assets have all been taken. */
  relations: AsyncIterable<IngestRelation[]>;
}

export const INGEST_MODES: readonly IngestMode[] = ['merge', 'append', 'replace'];
const TOP_KEYS = new Set(['assets', 'relations', 'options']);
const OPTION_KEYS = new Set(['mode', 'deleteStale', 'source']);
type TextField = 'type' | 'vendor' | 'model' | 'site' | 'os_version';
const ASSET_TEXT: Record<TextField, number> = {
  type: 64,
  vendor: 255,
  model: 255,
  site: 255,
  os_version: 255,
};
const ASSET_TEXT_FIELDS = Object.entries(ASSET_TEXT) as [TextField, number][];
const ASSET_KEYS = new Set([
  'id',
  'name',
  'ip',
  'risk_score',
  'vulnerabilities',
  ...Object.keys(ASSET_TEXT),
]);
const VULNERABILITY_KEYS = new Set(['id', 'score', 'summary', 'publishedDate']);
const RELATION_KEYS = new Set([
  'sourceAssetId',
  'targetAssetId',
  'type',
  'direction',
  'protocol',
  'toPorts',
]);
// Printable characters only (no controls, no lone surrogates): an id ends up in URLs and logs.
const PRINTABLE = /^[\x20-\x7e\u00a0-\ud7ff\ue000-\u{10ffff}]+$/u;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function fail(message: string): never {
  throw new BadRequestException(message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rejectUnknown(value: Record<string, unknown>, allowed: Set<string>, path: string): void {
  for (const key in value) {
    if (!allowed.has(key)) fail(`${path ? `${path}.` : ''}${key} is not an accepted property`);
  }
}

// The item's path and the field's name apart: the full path is made only for a message.
function text(value: unknown, path: string, field: string, min: number, max: number): string {
  const at = () => `${path}.${field}`;
  if (typeof value !== 'string') fail(`${at()} must be a string`);
  if (value.length < min || value.length > max) {
    fail(`${at()} must be ${min > 0 ? `${min} to ` : 'at most '}${max} characters long`);
  }
  if (value.includes('\0')) fail(`${at()} must not contain NUL characters`);
  return value;
}

function optionalText(value: unknown, path: string, field: string, max: number): string | null {
  return value === null ? null : text(value, path, field, 0, max);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// Arithmetic rather than a Date round trip, which was a fifth of the time of a large payload.
function isRealDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]);
}

function parseVulnerability(value: unknown, path: string): IngestVulnerability {
  if (!isObject(value)) fail(`${path} must be an object`);
  rejectUnknown(value, VULNERABILITY_KEYS, path);
  const id = text(value.id, path, 'id', 1, 64);
  let score: number | null = null;
  if (value.score !== undefined && value.score !== null) {
    if (typeof value.score !== 'number' || !Number.isFinite(value.score)) {
      fail(`${path}.score must be a number`);
    }
    if (value.score < 0 || value.score > 10) fail(`${path}.score must be from 0 to 10`);
    score = value.score;
  }
  const summary =
    value.summary === undefined ? null : optionalText(value.summary, path, 'summary', 2000);
  let publishedDate: string | null = null;
  if (value.publishedDate !== undefined && value.publishedDate !== null) {
    if (typeof value.publishedDate !== 'string' || !isRealDate(value.publishedDate)) {
      fail(`${path}.publishedDate must be a date as YYYY-MM-DD`);
    }
    publishedDate = value.publishedDate;
  }
  return { id, score, summary, publishedDate };
}

function parseAsset(value: unknown, index: number): IngestAsset {
  const path = `assets[${index}]`;
  if (!isObject(value)) fail(`${path} must be an object`);
  rejectUnknown(value, ASSET_KEYS, path);
  const asset: IngestAsset = { index, fields: {} };
  if (value.id !== undefined) {
    asset.id = text(value.id, path, 'id', 1, MAX_ASSET_ID_LENGTH);
    if (!PRINTABLE.test(asset.id)) fail(`${path}.id must hold printable characters only`);
  }
  if (value.name !== undefined) asset.fields.name = text(value.name, path, 'name', 1, 255);
  if (value.ip !== undefined) {
    if (value.ip !== null && !isAssetIp(value.ip)) {
      fail(`${path}.ip must be an IP address`);
    }
    asset.fields.ip = value.ip;
  }
  for (const [field, max] of ASSET_TEXT_FIELDS) {
    if (value[field] !== undefined) {
      asset.fields[field] = optionalText(value[field], path, field, max);
    }
  }
  if (value.risk_score !== undefined) {
    const score = value.risk_score;
    if (
      score !== null &&
      (!Number.isInteger(score) || (score as number) < 0 || (score as number) > 100)
    ) {
      fail(`${path}.risk_score must be an integer from 0 to 100`);
    }
    asset.fields.risk_score = score as number | null;
  }
  if (value.vulnerabilities !== undefined) {
    if (!Array.isArray(value.vulnerabilities)) fail(`${path}.vulnerabilities must be an array`);
    const seen = new Map<string, number>();
    asset.vulnerabilities = value.vulnerabilities.map((item: unknown, position: number) => {
      const vulnerability = parseVulnerability(item, `${path}.vulnerabilities[${position}]`);
      const first = seen.get(vulnerability.id);
      if (first !== undefined) {
        fail(
          `${path}.vulnerabilities[${position}].id repeats ${path}.vulnerabilities[${first}].id`,
        );
      }
      seen.set(vulnerability.id, position);
      return vulnerability;
    });
  }
  return asset;
}

function parseRelation(value: unknown, index: number): IngestRelation {
  const path = `relations[${index}]`;
  if (!isObject(value)) fail(`${path} must be an object`);
  rejectUnknown(value, RELATION_KEYS, path);
  const relation: IngestRelation = {
    index,
    sourceAssetId: text(value.sourceAssetId, path, 'sourceAssetId', 1, MAX_ASSET_ID_LENGTH),
    targetAssetId: text(value.targetAssetId, path, 'targetAssetId', 1, MAX_ASSET_ID_LENGTH),
    type: text(value.type, path, 'type', 1, 64),
  };
  if (relation.sourceAssetId === relation.targetAssetId) {
    fail(`${path}.targetAssetId must differ from sourceAssetId`);
  }
  if (value.direction !== undefined) {
    if (value.direction !== 'bi' && value.direction !== 'mono') {
      fail(`${path}.direction must be bi or mono`);
    }
    relation.direction = value.direction;
  }
  if (value.protocol !== undefined) {
    relation.protocol = optionalText(value.protocol, path, 'protocol', 32);
  }
  if (value.toPorts !== undefined) {
    if (value.toPorts !== null && !isPortList(value.toPorts)) {
      fail(`${path}.toPorts must be comma-separated ports or port ranges from 1 to 65535`);
    }
    relation.toPorts = value.toPorts as string | null;
  }
  return relation;
}

/**
 * A parsed body's arrays as slices, the way openJsonInWorker hands them over, with a turn of
 * the event loop after each.
 */
async function* slicesOf(assets: unknown[], relations: unknown[]): AsyncGenerator<JsonSlice> {
  for (const [part, items] of [
    ['assets', assets],
    ['relations', relations],
  ] as const) {
    for (let start = 0; start < items.length; start += CHECK_ITEMS_PER_TURN) {
      yield { part, items: items.slice(start, start + CHECK_ITEMS_PER_TURN) };
      await yieldToEventLoop();
    }
  }
}

/** Refuses an asset id given twice, naming both items; `firstById` holds the ids before. */
function rejectRepeatedId(asset: IngestAsset, firstById: Map<string, number>): void {
  if (asset.id === undefined) return;
  const first = firstById.get(asset.id);
  if (first !== undefined) fail(`assets[${asset.index}].id repeats assets[${first}].id`);
  firstById.set(asset.id, asset.index);
}

/**
 * Checks the body item by item, in order, and names the first bad item by its path
 * (`assets[57].ip must be an IP address`). Written by hand rather than with class-validator,
 * which takes seconds over a hundred thousand nested items, and in turns of a few thousand
 * items, so that a large payload does not hold up other requests (health probes) meanwhile.
 * With `slices` (a body parsed by openJsonInWorker), `body` is the top level and the items of
 * its long arrays come slice by slice, each checked and let go of as it comes; without, the
 * body's own arrays are taken in slices. The top level is checked here; the items as the
 * payload's `assets` and `relations` are taken.
 */
export function parseIngestPayload(
  body: unknown,
  slices?: AsyncIterable<JsonSlice>,
): IngestPayload {
  if (!isObject(body)) fail('the body must be a JSON object');
  rejectUnknown(body, TOP_KEYS, '');

  const options = body.options ?? {};
  if (!isObject(options)) fail('options must be an object');
  rejectUnknown(options, OPTION_KEYS, 'options');
  const mode = (options.mode ?? 'merge') as IngestMode;
  if (!INGEST_MODES.includes(mode)) fail('options.mode must be merge, append or replace');
  const deleteStale = options.deleteStale ?? false;
  if (typeof deleteStale !== 'boolean') fail('options.deleteStale must be a boolean');
  if (deleteStale && mode === 'append') {
    fail('options.deleteStale applies to merge mode only (replace implies it)');
  }
  const source =
    options.source === undefined || options.source === null
      ? null
      : text(options.source, 'options', 'source', 1, 100);

  const rawAssets = body.assets ?? [];
  if (!Array.isArray(rawAssets)) fail('assets must be an array');
  const rawRelations = body.relations ?? [];
  if (!Array.isArray(rawRelations)) fail('relations must be an array');

  // Slices come in order, the assets' before the relations'.
  const iterator = (slices ?? slicesOf(rawAssets, rawRelations))[Symbol.asyncIterator]();
  // The first slice that is not the assets', once they have been read.
  let pending: IteratorResult<JsonSlice> | null = null;
  let assetsRead = false;
  async function* assets(): AsyncGenerator<IngestAsset[]> {
    if (assetsRead) throw new Error('the assets are read once');
    assetsRead = true;
    const firstById = new Map<string, number>();
    let count = 0;
    for (;;) {
      const next = await iterator.next();
      if (next.done || next.value.part !== 'assets') {
        pending = next;
        return;
      }
      const slice: IngestAsset[] = [];
      for (const item of next.value.items) {
        const asset = parseAsset(item, count++);
        rejectRepeatedId(asset, firstById);
        slice.push(asset);
      }
      yield slice;
    }
  }
  let relationsRead = false;
  async function* relations(): AsyncGenerator<IngestRelation[]> {
    if (relationsRead || !pending) throw new Error('the relations are read once, after the assets');
    relationsRead = true;
    let count = 0;
    for (let next = pending; !next.done; next = await iterator.next()) {
      yield next.value.items.map((item) => parseRelation(item, count++));
    }
  }
  return { mode, deleteStale, source, assets: assets(), relations: relations() };
}
