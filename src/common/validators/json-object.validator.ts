import { applyDecorators } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';
import { ValidateBy } from 'class-validator';
import { nestsDeeperThan } from '../json-depth.js';

/** Far more than any real document needs, far less than would exhaust the stack. */
export const MAX_JSON_DEPTH = 100;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A JSON object (not an array, null or a scalar) nested at most MAX_JSON_DEPTH levels and at
 * most `maxBytes` long once serialized as UTF-8. The value is kept as parsed, key order included.
 */
export const IsJsonObject = (maxBytes: number) =>
  applyDecorators(
    // Keeps the value as parsed rather than class-transformer's copy of it: declared a String,
    // the value is not walked (its recursive copy overflows the stack on deep nesting), and
    // the Transform then puts the original back.
    Type(() => String),
    Transform(({ obj, key }: { obj: Record<string, unknown>; key: string }) => obj[key]),
    ValidateBy({
      name: 'isJsonObject',
      validator: {
        validate: (value: unknown) => isPlainObject(value),
        defaultMessage: () => '$property must be a JSON object',
      },
    }),
    ValidateBy({
      name: 'maxJsonDepth',
      validator: {
        validate: (value: unknown) =>
          !isPlainObject(value) || !nestsDeeperThan(value, MAX_JSON_DEPTH),
        defaultMessage: () => `$property must be nested at most ${MAX_JSON_DEPTH} levels deep`,
      },
    }),
    ValidateBy({
      name: 'maxJsonBytes',
      validator: {
        validate: (value: unknown) =>
          !isPlainObject(value) ||
          nestsDeeperThan(value, MAX_JSON_DEPTH) ||
          Buffer.byteLength(JSON.stringify(value)) <= maxBytes,
        defaultMessage: () => `$property must be at most ${maxBytes} bytes once serialized`,
      },
    }),
  );
