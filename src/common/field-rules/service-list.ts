import { InvalidInputError } from '../errors/invalid-input.error.js';
import type { ServiceProtocol } from './inventory-values.js';
import { fieldProblem } from './field-rule.js';
import { SERVICE_FIELDS } from './inventory-fields.js';

/** An entry of an asset's `services` once checked: absent optional values read as null. */
export interface ServiceValues {
  port: number;
  protocol: ServiceProtocol;
  name: string | null;
  product: string | null;
  version: string | null;
}

const SERVICE_KEYS = Object.keys(SERVICE_FIELDS) as (keyof typeof SERVICE_FIELDS)[];
const ACCEPTED_KEYS = new Set<string>(SERVICE_KEYS);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What is wrong with one entry, its field named under `path`; null when it is acceptable. */
function entryProblem(value: unknown, path: string): string | null {
  if (!isObject(value)) return `${path} must be an object`;
  for (const key in value) {
    if (!ACCEPTED_KEYS.has(key)) return `${path}.${key} is not an accepted property`;
  }
  for (const field of SERVICE_KEYS) {
    // Absent reads as null: an entry is written whole (port and protocol refuse null).
    const problem = fieldProblem(SERVICE_FIELDS[field], value[field] ?? null);
    if (problem !== null) return `${path}.${field} ${problem}`;
  }
  return null;
}

/**
 * An asset's `services` as given to POST/PUT /api/assets or in an ingestion item (`path`
 * names it: `services`, `assets[3].services`): the entries, or the first problem, naming the
 * entry by its path (`assets[3].services[1].port must be ...`). At most one entry per (port,
 * protocol). Read by the REST DTOs (IsServiceList) and the ingestion's validator alike.
 */
export function readServiceList(
  value: unknown,
  path: string,
): { services: ServiceValues[] } | { problem: string } {
  if (!Array.isArray(value)) return { problem: `${path} must be an array` };
  const services: ServiceValues[] = [];
  const firstByKey = new Map<string, number>();
  for (let position = 0; position < value.length; position++) {
    const entryPath = `${path}[${position}]`;
    const entry: unknown = value[position];
    const problem = entryProblem(entry, entryPath);
    if (problem !== null) return { problem };
    const { port, protocol, name, product, version } = entry as Record<string, unknown>;
    const key = `${port as number}/${protocol as string}`;
    const first = firstByKey.get(key);
    if (first !== undefined) {
      return {
        problem: `${entryPath} repeats the port and protocol of ${path}[${first}] (${key})`,
      };
    }
    firstByKey.set(key, position);
    services.push({
      port: port as number,
      protocol: protocol as ServiceProtocol,
      name: (name ?? null) as string | null,
      product: (product ?? null) as string | null,
      version: (version ?? null) as string | null,
    });
  }
  return { services };
}

/** As readServiceList; a problem is a 400. */
export function checkServiceList(value: unknown, path: string): ServiceValues[] {
  const read = readServiceList(value, path);
  if ('problem' in read) throw new InvalidInputError(read.problem);
  return read.services;
}
