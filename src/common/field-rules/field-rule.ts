import type { ApiPropertyOptions } from '@nestjs/swagger';
import { isIP } from 'node:net';
import { InvalidInputError } from '../errors/invalid-input.error.js';

/**
 * What one field accepts, whoever checks it: the REST DTOs (field.decorator.ts), the ingestion's
 * hand-written item checks (checkField) and the OpenAPI document (fieldSchema) all read it.
 * `nullable`: null is a value of the field (it clears it), not an error.
 */
export type FieldRule =
  TextRule | IpRule | PortListRule | IntegerRule | NumberRule | DateRule | EnumRule;

interface RuleBase {
  nullable: boolean;
  /** For the OpenAPI document only. */
  description?: string;
  example?: unknown;
}

interface TextRule extends RuleBase {
  kind: 'text';
  min: number;
  max: number;
  /** No control characters: the value ends up in URLs and logs. */
  printable?: boolean;
}

interface IpRule extends RuleBase {
  kind: 'ip';
}

interface PortListRule extends RuleBase {
  kind: 'portList';
}

interface IntegerRule extends RuleBase {
  kind: 'integer';
  min: number;
  max: number;
}

interface NumberRule extends RuleBase {
  kind: 'number';
  min: number;
  max: number;
}

/** A real calendar date written YYYY-MM-DD. */
interface DateRule extends RuleBase {
  kind: 'date';
}

interface EnumRule extends RuleBase {
  kind: 'enum';
  values: readonly string[];
  /** The schema's name in the OpenAPI document. */
  enumName: string;
}

type Options = Partial<Pick<RuleBase, 'nullable' | 'description' | 'example'>>;

export const textRule = (
  min: number,
  max: number,
  options: Options & { printable?: boolean } = {},
) => ({ kind: 'text', min, max, nullable: false, ...options }) satisfies TextRule;
/** A text that may be empty and null clears: the common shape of a descriptive field. */
export const optionalTextRule = (max: number, options: Options = {}) =>
  textRule(0, max, { nullable: true, ...options });
export const ipRule = (options: Options = {}) =>
  ({ kind: 'ip', nullable: false, ...options }) satisfies IpRule;
export const portListRule = (options: Options = {}) =>
  ({ kind: 'portList', nullable: false, ...options }) satisfies PortListRule;
export const integerRule = (min: number, max: number, options: Options = {}) =>
  ({ kind: 'integer', min, max, nullable: false, ...options }) satisfies IntegerRule;
export const numberRule = (min: number, max: number, options: Options = {}) =>
  ({ kind: 'number', min, max, nullable: false, ...options }) satisfies NumberRule;
export const dateRule = (options: Options = {}) =>
  ({ kind: 'date', nullable: false, ...options }) satisfies DateRule;
export const enumRule = (values: readonly string[], enumName: string, options: Options = {}) =>
  ({ kind: 'enum', values, enumName, nullable: false, ...options }) satisfies EnumRule;

/** The width of an ip column: the longest IPv6 text form (a long zone id would not fit). */
const MAX_IP_LENGTH = 45;
/** The width of a port-list column. */
const MAX_PORT_LIST_LENGTH = 1000;
const MAX_PORT = 65535;

// Digits only, no sign, no leading zero, no spaces: one canonical spelling per port.
const PORT_ITEM = /^([1-9]\d{0,4})(?:-([1-9]\d{0,4}))?$/;
const PORT_LIST_PATTERN = '^[1-9]\\d{0,4}(-[1-9]\\d{0,4})?(,[1-9]\\d{0,4}(-[1-9]\\d{0,4})?)*$';

// What isIP accepts, spelt as Node spells it (lib/internal/net.js), for the document: a dotted
// quad, or IPv6 with an optional zone id (fe80::1%eth0), which JSON Schema's ipv6 format refuses.
const V4_SEGMENT = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9][0-9]|[0-9])';
const V4 = `(?:${V4_SEGMENT}\\.){3}${V4_SEGMENT}`;
const V6_SEGMENT = '[0-9a-fA-F]{1,4}';
const V6 = [
  `(?:${V6_SEGMENT}:){7}(?:${V6_SEGMENT}|:)`,
  `(?:${V6_SEGMENT}:){6}(?:${V4}|:${V6_SEGMENT}|:)`,
  `(?:${V6_SEGMENT}:){5}(?::${V4}|(?::${V6_SEGMENT}){1,2}|:)`,
  `(?:${V6_SEGMENT}:){4}(?:(?::${V6_SEGMENT}){0,1}:${V4}|(?::${V6_SEGMENT}){1,3}|:)`,
  `(?:${V6_SEGMENT}:){3}(?:(?::${V6_SEGMENT}){0,2}:${V4}|(?::${V6_SEGMENT}){1,4}|:)`,
  `(?:${V6_SEGMENT}:){2}(?:(?::${V6_SEGMENT}){0,3}:${V4}|(?::${V6_SEGMENT}){1,5}|:)`,
  `(?:${V6_SEGMENT}:){1}(?:(?::${V6_SEGMENT}){0,4}:${V4}|(?::${V6_SEGMENT}){1,6}|:)`,
  `(?::(?:(?::${V6_SEGMENT}){0,5}:${V4}|(?::${V6_SEGMENT}){1,7}|:))`,
].join('|');
const IP_PATTERN = `^(?:${V4}|(?:${V6})(?:%[0-9a-zA-Z-.:]{1,})?)$`;
// Printable characters only: no controls, no lone surrogates.
const PRINTABLE = /^[\x20-\x7e\u00a0-\ud7ff\ue000-\u{10ffff}]+$/u;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

declare global {
  interface String {
    /** ES2024, in Node since 20; the project's `lib` is ES2023. */
    isWellFormed(): boolean;
  }
}

/**
 * Whether the text holds half a UTF-16 pair, which neither UTF-8 nor encodeURI can spell (a
 * database would store it altered). isWellFormed is much faster than /\p{Cs}/u.
 */
export function hasLoneSurrogate(value: string): boolean {
  return !value.isWellFormed();
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isPortItem(item: string): boolean {
  const match = PORT_ITEM.exec(item);
  if (!match) return false;
  const start = Number(match[1]);
  const end = match[2] === undefined ? start : Number(match[2]);
  return start <= MAX_PORT && end <= MAX_PORT && start <= end;
}

function isPortList(value: string): boolean {
  return value.length <= MAX_PORT_LIST_LENGTH && value.split(',').every(isPortItem);
}

/** The number the decimal digits of `value` from `start` to `end` write. */
function digitsAt(value: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) n = n * 10 + value.charCodeAt(i) - 48;
  return n;
}

// Arithmetic rather than a Date round trip, which is a large share of a big ingestion's time;
// and read off the characters, since a match's array for each of its dates is garbage.
function isRealDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 7);
  const day = digitsAt(value, 8, 10);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]);
}

/** "a, b or c" */
export function alternatives(values: readonly string[]): string {
  return values.length < 2
    ? values.join('')
    : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;
}

function textProblem(rule: TextRule, value: unknown): string | null {
  if (typeof value !== 'string') return 'must be a string';
  if (value.length < rule.min || value.length > rule.max) {
    return `must be ${rule.min > 0 ? `${rule.min} to ` : 'at most '}${rule.max} characters long`;
  }
  if (value.includes('\0')) return 'must not contain NUL characters';
  if (rule.printable) {
    return PRINTABLE.test(value) ? null : 'must hold printable characters only';
  }
  return hasLoneSurrogate(value) ? 'must not contain lone UTF-16 surrogates' : null;
}

/**
 * What is wrong with a value under the rule (`must be an IP address`), or null when it is
 * acceptable. Null is acceptable exactly when the rule is nullable; an absent (undefined) value
 * is the caller's to decide, as whether a field is required depends on the operation.
 */
export function fieldProblem(rule: FieldRule, value: unknown): string | null {
  if (value === null && rule.nullable) return null;
  switch (rule.kind) {
    case 'text':
      return textProblem(rule, value);
    case 'ip':
      return typeof value === 'string' && value.length <= MAX_IP_LENGTH && isIP(value) !== 0
        ? null
        : 'must be an IP address';
    case 'portList':
      return typeof value === 'string' && isPortList(value)
        ? null
        : 'must be comma-separated ports or port ranges from 1 to 65535';
    case 'integer':
      return Number.isInteger(value) &&
        (value as number) >= rule.min &&
        (value as number) <= rule.max
        ? null
        : `must be an integer from ${rule.min} to ${rule.max}`;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      return value >= rule.min && value <= rule.max
        ? null
        : `must be from ${rule.min} to ${rule.max}`;
    case 'date':
      return typeof value === 'string' && isRealDate(value) ? null : 'must be a date as YYYY-MM-DD';
    case 'enum':
      return rule.values.includes(value as string) ? null : `must be ${alternatives(rule.values)}`;
  }
}

/**
 * The value when the rule accepts it; else a 400 naming the field by its path
 * (`assets[3].ip must be an IP address`). The path is put together only for the message.
 */
export function checkField<T>(rule: FieldRule, value: unknown, path: string, field: string): T {
  const problem = fieldProblem(rule, value);
  if (problem !== null) throw new InvalidInputError(`${path}.${field} ${problem}`);
  return value as T;
}

/** The rule as an OpenAPI schema, for `@ApiProperty`. */
export function fieldSchema(rule: FieldRule): ApiPropertyOptions {
  const common = {
    ...(rule.nullable && { nullable: true }),
    ...(rule.description !== undefined && { description: rule.description }),
    ...(rule.example !== undefined && { example: rule.example }),
  };
  switch (rule.kind) {
    case 'text':
      return {
        type: String,
        ...(rule.min > 0 && { minLength: rule.min }),
        maxLength: rule.max,
        ...common,
      };
    case 'ip':
      return { type: String, maxLength: MAX_IP_LENGTH, pattern: IP_PATTERN, ...common };
    case 'portList':
      return {
        type: String,
        maxLength: MAX_PORT_LIST_LENGTH,
        // The spelling; the range (1 to 65535, a range's start at most its end) is described.
        pattern: PORT_LIST_PATTERN,
        ...common,
      };
    case 'integer':
      return { type: 'integer', minimum: rule.min, maximum: rule.max, ...common };
    case 'number':
      return { type: Number, minimum: rule.min, maximum: rule.max, ...common };
    case 'date':
      return { type: String, format: 'date', ...common };
    case 'enum':
      return { enum: [...rule.values], enumName: rule.enumName, ...common };
  }
}
