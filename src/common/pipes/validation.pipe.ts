import {
  BadRequestException,
  ValidationError,
  ValidationPipe,
  type ArgumentMetadata,
  type Type,
} from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { prototypeKeyPath } from './prototype-keys.js';
import { REPEATABLE_QUERY_RULE } from '../validators/repeatable-query.validator.js';

/** `assets[3].ip must be an IP address`: each failed rule, prefixed with the field's full path. */
export function describeValidationErrors(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = /^\d+$/.test(error.property)
      ? `${parent}[${error.property}]`
      : parent
        ? `${parent}.${error.property}`
        : error.property;
    const own = Object.entries(error.constraints ?? {}).map(([rule, message]) => {
      if (rule === 'whitelistValidation') return `${path} is not an accepted property`;
      // A list's own check may name an entry of it: `services[1].port must be ...`.
      const named = [' ', '[', '.'].some((next) => message.startsWith(`${error.property}${next}`));
      return named ? `${path}${message.slice(error.property.length)}` : `${path}: ${message}`;
    });
    return [...own, ...describeValidationErrors(error.children ?? [], path)];
  });
}

/**
 * A query DTO class that takes its common case without class-validator declares a static
 * `quickCheck` of the parsed query string: the DTO, or null to go through the full check (for
 * its messages).
 */
export interface QuickCheckedDto {
  quickCheck(this: void, value: unknown): object | null;
}

/**
 * The class's own quickCheck: a subclass that inherits one adds rules of its own, which the
 * inherited check does not know.
 */
function ownQuickCheck(metatype: unknown): QuickCheckedDto['quickCheck'] | null {
  return typeof metatype === 'function' &&
    Object.prototype.hasOwnProperty.call(metatype, 'quickCheck')
    ? (metatype as unknown as QuickCheckedDto).quickCheck
    : null;
}

/**
 * A query parameter takes a list only when its rule says so (IsRepeatableQueryValue): another
 * of `dto`'s given twice (`?limit=1&limit=2`, which the query string parser makes a list) is
 * refused as such, not with its type's message. An unknown one is left to the whitelist, which
 * names it as unknown.
 */
function refuseRepeated(query: unknown, dto: Type): void {
  if (query === null || typeof query !== 'object') return;
  for (const [key, value] of Object.entries(query)) {
    if (!Array.isArray(value)) continue;
    const rules = propertyRules(dto, key);
    if (rules.length > 0 && !rules.some((rule) => rule.name === REPEATABLE_QUERY_RULE)) {
      throw new BadRequestException(`${key} must be given once`);
    }
  }
}

function propertyRules(dto: Type, key: string) {
  return getMetadataStorage()
    .getTargetValidationMetadatas(dto, '', true, false)
    .filter((rule) => rule.propertyName === key);
}

/**
 * Nest's pipe removes `__proto__`, `constructor` and `prototype` keys without a word, so that
 * they would pass where any other unknown key is refused: they are refused like the others.
 */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'query' && metadata.metatype && this.toValidate(metadata)) {
      refuseRepeated(value, metadata.metatype);
    }
    const quickCheck = metadata.type === 'query' ? ownQuickCheck(metadata.metatype) : null;
    if (quickCheck !== null) {
      const checked = quickCheck(value);
      if (checked !== null) return checked;
    }
    return super.transform(value, metadata) as Promise<unknown>;
  }

  protected override stripProtoKeys(value: unknown): void {
    const path = prototypeKeyPath(value);
    if (path !== null) throw new BadRequestException(`${path} is not an accepted property`);
  }
}

/** Strict validation of every body, query and path DTO; unknown properties are refused. */
export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    // One message per field: the first rule it breaks.
    stopAtFirstError: true,
    exceptionFactory: (errors) =>
      new BadRequestException(describeValidationErrors(errors).join('; ') || 'invalid request'),
  });
}
