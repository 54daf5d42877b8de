import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { InvalidInputError } from '../../common/errors/invalid-input.error.js';
import {
  checkField,
  fieldProblem,
  integerRule,
  ipRule,
  textRule,
  type FieldRule,
} from '../../common/field-rules/field-rule.js';
import {
  ASSET_FIELD_RULES,
  ASSET_ID_RULE,
  RELATION_FIELDS,
} from '../../common/field-rules/inventory-fields.js';
import { checkEntryList } from '../../common/field-rules/entry-list.js';
import { SERVICE_LIST } from '../../common/field-rules/service-list.js';
import { VULNERABILITY_LIST } from '../../common/field-rules/vulnerability-list.js';
import type { JsonSlice } from '../parse/json-worker.js';
import { CHECK_ITEMS_PER_TURN } from '../../database/ingest-tuning.js';
import { ASSET_FIELDS } from '../../database/tables/assets.table.js';
import {
  DEFAULT_MATCH_KEYS,
  IDENTITY_MATCH_KEYS,
  type IdentityMatchKey,
} from '../match/identity-match.js';
import {
  SPACED_LISTS,
  readIdentityList,
  resolveAddresses,
} from '../../common/field-rules/identity-values.js';
import {
  INGEST_MODES,
  jsonItemName,
  type IngestAsset,
  type IngestMode,
  type IngestPayload,
  type IngestRelation,
  type ItemNamer,
} from '../ingest-payload.js';

const TOP_KEYS = new Set(['assets', 'relations', 'options']);
export const OPTION_KEYS: ReadonlySet<string> = new Set([
  'mode',
  'deleteStale',
  'source',
  'dryRun',
  'maxDeletions',
  'maxFixes',
  'matchBy',
  'site',
]);
// maxDeletions and maxFixes.
const MAX_DELETIONS_RULE = integerRule(0, Number.MAX_SAFE_INTEGER);
const MATCH_KEYS: readonly string[] = ['id', ...IDENTITY_MATCH_KEYS];
const ASSET_KEYS = new Set(['id', ...ASSET_FIELDS, ...SPACED_LISTS, 'vulnerabilities', 'services']);
const RELATION_KEYS = new Set(Object.keys(RELATION_FIELDS));
/** A scanner's relation names its ends by the ips of the body's assets (scanner formats). */
const IP_ENDS = { sourceAssetId: 'sourceAssetIp', targetAssetId: 'targetAssetIp' } as const;
const IP_END_RULE = ipRule();
const IP_RELATION_KEYS = new Set(
  [...RELATION_KEYS].map((key) => (key in IP_ENDS ? IP_ENDS[key as keyof typeof IP_ENDS] : key)),
);

function fail(message: string): never {
  throw new InvalidInputError(message);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rejectUnknown(
  value: Record<string, unknown>,
  allowed: ReadonlySet<string>,
  path: string,
): void {
  for (const key in value) {
    if (!allowed.has(key)) fail(`${path ? `${path}.` : ''}${key} is not an accepted property`);
  }
}

/**
 * Where the options come from: the body's `options` (JSON) or the query (scanner formats, whose
 * values the query-options module has typed). Errors name them as the client wrote them.
 */
export type OptionsOrigin = 'body' | 'query';

const optionName = (origin: OptionsOrigin, field: string) =>
  origin === 'body' ? `options.${field}` : field;

function option<T>(rule: FieldRule, value: unknown, origin: OptionsOrigin, field: string): T {
  const problem = fieldProblem(rule, value);
  if (problem !== null) fail(`${optionName(origin, field)} ${problem}`);
  return value as T;
}

function flag(value: unknown, origin: OptionsOrigin, field: string): boolean {
  const given = value ?? false;
  if (typeof given !== 'boolean') fail(`${optionName(origin, field)} must be a boolean`);
  return given;
}

/**
 * `matchBy`: keys among id, mac, ip and hostname, id among them, none twice (default id, mac,
 * ip); answers the keys beside id.
 */
function matchKeys(value: unknown, origin: OptionsOrigin): IdentityMatchKey[] {
  if (value === undefined || value === null) return [...DEFAULT_MATCH_KEYS];
  const keys = Array.isArray(value) ? (value as unknown[]) : [];
  const valid =
    keys.includes('id') &&
    keys.every((key) => MATCH_KEYS.includes(key as string)) &&
    new Set(keys).size === keys.length;
  if (!valid) {
    fail(
      origin === 'body'
        ? 'options.matchBy must be a list of "id", "mac", "ip" and "hostname" holding "id", none twice'
        : 'matchBy must be a comma-separated list of id, mac, ip and hostname holding id, none twice',
    );
  }
  return IDENTITY_MATCH_KEYS.filter((key) => keys.includes(key));
}

function parseAsset(value: unknown, index: number, path: string): IngestAsset {
  if (!isObject(value)) fail(`${path} must be an object`);
  rejectUnknown(value, ASSET_KEYS, path);
  const asset: IngestAsset = { index, fields: {} };
  const fields = asset.fields;
  if (value.id !== undefined) asset.id = checkField(ASSET_ID_RULE, value.id, path, 'id');
  for (const field of ASSET_FIELDS) {
    if (value[field] !== undefined) {
      fields[field] = checkField(ASSET_FIELD_RULES[field], value[field], path, field);
    }
  }
  if (value.vulnerabilities !== undefined) {
    asset.vulnerabilities = checkEntryList(
      value.vulnerabilities,
      `${path}.vulnerabilities`,
      VULNERABILITY_LIST,
    );
  }
  if (value.services !== undefined) {
    asset.services = checkEntryList(value.services, `${path}.services`, SERVICE_LIST);
  }
  for (const list of SPACED_LISTS) {
    if (value[list] === undefined) continue;
    const read = readIdentityList(list, value[list], `${path}.${list}`);
    if ('problem' in read) fail(read.problem);
    (asset.identity ??= {})[list] = read.values;
  }
  const addresses = asset.identity?.addresses;
  if (fields.ip !== undefined && addresses !== undefined) {
    const resolved = resolveAddresses(fields.ip, addresses, []);
    if ('problem' in resolved) fail(`${path}.${resolved.problem}`);
  }
  return asset;
}

/** The relation's ends, by id or (`byIp`) by the ips of the body's assets. */
function relationEnds(
  value: Record<string, unknown>,
  path: string,
  byIp: boolean,
): Pick<IngestRelation, 'sourceAssetId' | 'targetAssetId' | 'endsBy'> {
  const rules = RELATION_FIELDS;
  if (!byIp) {
    const ends = {
      sourceAssetId: checkField<string>(
        rules.sourceAssetId,
        value.sourceAssetId,
        path,
        'sourceAssetId',
      ),
      targetAssetId: checkField<string>(
        rules.targetAssetId,
        value.targetAssetId,
        path,
        'targetAssetId',
      ),
    };
    if (ends.sourceAssetId === ends.targetAssetId) {
      fail(`${path}.targetAssetId must differ from sourceAssetId`);
    }
    return ends;
  }
  const ends = {
    sourceAssetId: checkField<string>(IP_END_RULE, value.sourceAssetIp, path, 'sourceAssetIp'),
    targetAssetId: checkField<string>(IP_END_RULE, value.targetAssetIp, path, 'targetAssetIp'),
    endsBy: 'ip' as const,
  };
  if (ends.sourceAssetId === ends.targetAssetId) {
    fail(`${path}.targetAssetIp must differ from sourceAssetIp`);
  }
  return ends;
}

function parseRelation(value: unknown, index: number, path: string, byIp: boolean): IngestRelation {
  if (!isObject(value)) fail(`${path} must be an object`);
  rejectUnknown(value, byIp ? IP_RELATION_KEYS : RELATION_KEYS, path);
  const rules = RELATION_FIELDS;
  const relation: IngestRelation = {
    index,
    ...relationEnds(value, path, byIp),
    type: checkField(rules.type, value.type, path, 'type'),
  };
  if (value.direction !== undefined) {
    relation.direction = checkField(rules.direction, value.direction, path, 'direction');
  }
  if (value.protocol !== undefined) {
    relation.protocol = checkField(rules.protocol, value.protocol, path, 'protocol');
  }
  if (value.toPorts !== undefined) {
    relation.toPorts = checkField(rules.toPorts, value.toPorts, path, 'toPorts');
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
function rejectRepeatedId(
  asset: IngestAsset,
  firstById: Map<string, number>,
  itemName: ItemNamer,
): void {
  if (asset.id === undefined) return;
  const first = firstById.get(asset.id);
  if (first !== undefined) {
    fail(`${itemName('assets', asset.index)}.id repeats ${itemName('assets', first)}.id`);
  }
  firstById.set(asset.id, asset.index);
}

/** A slice of items; `paths[i]` names `items[i]` in errors (scanner formats). */
export type PayloadSlice = JsonSlice & { paths?: readonly string[] };

/** The options, checked; each refused with a 400 naming it as the client wrote it. */
function readOptions(
  options: Record<string, unknown>,
  origin: OptionsOrigin,
): Omit<IngestPayload, 'itemName' | 'relationEnds' | 'assets' | 'relations'> {
  const mode = (options.mode ?? 'merge') as IngestMode;
  if (!INGEST_MODES.includes(mode)) {
    fail(`${optionName(origin, 'mode')} must be merge, append or replace`);
  }
  const deleteStale = flag(options.deleteStale, origin, 'deleteStale');
  if (deleteStale && mode === 'append') {
    fail(`${optionName(origin, 'deleteStale')} applies to merge mode only (replace implies it)`);
  }
  const source =
    options.source === undefined || options.source === null
      ? null
      : option<string>(textRule(1, 100), options.source, origin, 'source');
  const dryRun = flag(options.dryRun, origin, 'dryRun');
  const maxDeletions =
    options.maxDeletions === undefined || options.maxDeletions === null
      ? null
      : option<number>(MAX_DELETIONS_RULE, options.maxDeletions, origin, 'maxDeletions');
  const maxFixes =
    options.maxFixes === undefined || options.maxFixes === null
      ? null
      : option<number>(MAX_DELETIONS_RULE, options.maxFixes, origin, 'maxFixes');
  const site =
    options.site === undefined || options.site === null
      ? null
      : option<string>(textRule(1, ASSET_FIELD_RULES.site.max), options.site, origin, 'site');
  const match = { keys: matchKeys(options.matchBy, origin), site };
  return { mode, deleteStale, source, dryRun, maxDeletions, maxFixes, match };
}

/**
 * The items of `slices`, checked as the payload's `assets` and `relations` are taken. `byIp`:
 * relations name their ends by ip (scanner formats). Without paths, items are named
 * `assets[i]`/`relations[i]`; with, by their paths, kept for the plans' errors.
 */
function readItems(
  slices: AsyncIterable<PayloadSlice>,
  byIp: boolean,
  site: string | null,
): Pick<IngestPayload, 'itemName' | 'relationEnds' | 'assets' | 'relations'> {
  const kept = { assets: [] as string[], relations: [] as string[] };
  const itemName: ItemNamer = (part, index) => kept[part][index] ?? jsonItemName(part, index);
  const name = (slice: PayloadSlice, position: number, index: number) => {
    const path = slice.paths?.[position];
    if (path === undefined) return jsonItemName(slice.part, index);
    kept[slice.part][index] = path;
    return path;
  };
  // Slices come in order, the assets' before the relations'.
  const iterator = slices[Symbol.asyncIterator]();
  // The first slice that is not the assets', once they have been read.
  let pending: IteratorResult<PayloadSlice> | null = null;
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
      next.value.items.forEach((item, position) => {
        const index = count++;
        const asset = parseAsset(item, index, name(next.value, position, index));
        // The run's site is every item's that gives none.
        if (site !== null && asset.fields.site === undefined) asset.fields.site = site;
        rejectRepeatedId(asset, firstById, itemName);
        slice.push(asset);
      });
      yield slice;
    }
  }
  let relationsRead = false;
  async function* relations(): AsyncGenerator<IngestRelation[]> {
    if (relationsRead || !pending) throw new Error('the relations are read once, after the assets');
    relationsRead = true;
    let count = 0;
    for (let next = pending; !next.done; next = await iterator.next()) {
      const slice = next.value;
      yield slice.items.map((item, position) => {
        const index = count++;
        return parseRelation(item, index, name(slice, position, index), byIp);
      });
    }
  }
  return {
    itemName,
    relationEnds: byIp ? 'ip' : 'id',
    assets: assets(),
    relations: relations(),
  };
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
  const read = readOptions(options, 'body');

  const rawAssets = body.assets ?? [];
  if (!Array.isArray(rawAssets)) fail('assets must be an array');
  const rawRelations = body.relations ?? [];
  if (!Array.isArray(rawRelations)) fail('relations must be an array');
  return {
    ...read,
    ...readItems(slices ?? slicesOf(rawAssets, rawRelations), false, read.match.site),
  };
}

/**
 * A scanner body's payload: `options` from the query (typed by optionsFromQuery), the items
 * converted slice by slice (convertBody), named by their paths, relations ending at ips.
 */
export function parseScannerPayload(
  options: Record<string, unknown>,
  slices: AsyncIterable<PayloadSlice>,
): IngestPayload {
  const read = readOptions(options, 'query');
  return { ...read, ...readItems(slices, true, read.match.site) };
}
