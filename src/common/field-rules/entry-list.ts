import { InvalidInputError } from '../errors/invalid-input.error.js';
import { fieldProblem, type FieldRule } from './field-rule.js';

/** A list of an asset's entries (services, vulnerabilities): each entry's rules, and its key. */
export interface EntryList<T> {
  /** The rule of each field of an entry. */
  fields: { readonly [F in keyof T]: FieldRule };
  /** What two entries of one list may not share. */
  key(entry: T): string;
  /** The problem of the entry at `entryPath` sharing `key` with the one at `firstPath`. */
  repeats(entryPath: string, firstPath: string, key: string): string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Lists longer than this find a repeated key through a Map. */
const SEARCHED_KEYS = 16;

/** Each shape's fields as pairs, made once: a big ingestion reads hundreds of thousands of entries. */
const fieldPairs = new WeakMap<object, [string, FieldRule][]>();

function pairsOf(fields: object): [string, FieldRule][] {
  let pairs = fieldPairs.get(fields);
  if (!pairs) {
    pairs = Object.entries<FieldRule>(fields as Record<string, FieldRule>);
    fieldPairs.set(fields, pairs);
  }
  return pairs;
}

/**
 * The entry at `position` of the list at `path`, absent optional values as null; or its first
 * problem, naming its field by its path (put together only for a problem).
 */
function readEntry<T>(
  value: unknown,
  path: string,
  position: number,
  fields: EntryList<T>['fields'],
): { entry: T } | { problem: string } {
  if (!isObject(value)) return { problem: `${path}[${position}] must be an object` };
  for (const key in value) {
    if (!Object.hasOwn(fields, key))
      return { problem: `${path}[${position}].${key} is not an accepted property` };
  }
  const entry: Record<string, unknown> = {};
  for (const [field, rule] of pairsOf(fields)) {
    // Absent reads as null: an entry is written whole (required fields refuse null).
    const given = value[field] ?? null;
    const problem = fieldProblem(rule, given);
    if (problem !== null) return { problem: `${path}[${position}].${field} ${problem}` };
    entry[field] = given;
  }
  return { entry: entry as T };
}

/**
 * A list of `shape`'s entries as given to POST/PUT /api/assets or in an ingestion item (`path`
 * names it: `services`, `assets[3].vulnerabilities`): the entries, or the first problem, naming
 * the entry by its path (`assets[3].services[1].port must be ...`). No two entries share a
 * key. Read by the REST DTOs (IsEntryList) and the ingestion's validator alike.
 */
export function readEntryList<T>(
  value: unknown,
  path: string,
  shape: EntryList<T>,
): { entries: T[] } | { problem: string } {
  if (!Array.isArray(value)) return { problem: `${path} must be an array` };
  const entries: T[] = [];
  // The keys so far, in list order; a short list (most are) is searched, as a Map for each
  // would be most of its garbage.
  const keys: string[] = [];
  let firstByKey: Map<string, number> | null = null;
  for (let position = 0; position < value.length; position++) {
    const read = readEntry(value[position], path, position, shape.fields);
    if ('problem' in read) return read;
    const key = shape.key(read.entry);
    const first = firstByKey ? (firstByKey.get(key) ?? -1) : keys.indexOf(key);
    if (first !== -1)
      return { problem: shape.repeats(`${path}[${position}]`, `${path}[${first}]`, key) };
    keys.push(key);
    if (firstByKey) firstByKey.set(key, position);
    else if (keys.length > SEARCHED_KEYS) firstByKey = new Map(keys.map((k, at) => [k, at]));
    entries.push(read.entry);
  }
  return { entries };
}

/** As readEntryList; a problem is a 400. */
export function checkEntryList<T>(value: unknown, path: string, shape: EntryList<T>): T[] {
  const read = readEntryList(value, path, shape);
  if ('problem' in read) throw new InvalidInputError(read.problem);
  return read.entries;
}
