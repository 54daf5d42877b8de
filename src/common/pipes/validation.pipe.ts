import {
  BadRequestException,
  ValidationError,
  ValidationPipe,
  type ArgumentMetadata,
} from '@nestjs/common';
import { PageQueryDto, validPageQuery } from '../dto/page-query.dto.js';
import { prototypeKeyPath } from './prototype-keys.js';

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
 * Nest's pipe removes `__proto__`, `constructor` and `prototype` keys without a word, so that
 * they would pass where any other unknown key is refused: they are refused like the others.
 */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A bare paging query, valid, needs no class-validator; anything else gets the full check.
    if (metadata.type === 'query' && metadata.metatype === PageQueryDto) {
      const page = validPageQuery(value);
      if (page !== null) return page;
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
