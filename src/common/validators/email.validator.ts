import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { isEmail, ValidateBy } from 'class-validator';
import { hasLoneSurrogate } from '../field-rules/field-rule.js';

export const MAX_EMAIL_LENGTH = 320;

function isEmailAddress(value: unknown): boolean {
  return (
    typeof value === 'string' &&
    value.length <= MAX_EMAIL_LENGTH &&
    // isEmail's encodeURI throws on a lone surrogate: a 500 instead of a 400.
    !hasLoneSurrogate(value) &&
    isEmail(value, { require_tld: false })
  );
}

/** `local@domain`, a dotted domain not required (`admin@localhost`); compared lower-cased. */
export const IsEmailAddress = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim().toLowerCase() : value,
    ),
    ValidateBy({
      name: 'isEmailAddress',
      validator: {
        validate: isEmailAddress,
        defaultMessage: () =>
          `$property must be an e-mail address of at most ${MAX_EMAIL_LENGTH} characters`,
      },
    }),
  );
