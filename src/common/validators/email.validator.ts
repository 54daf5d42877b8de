import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsEmail, MaxLength } from 'class-validator';

/** `local@domain`, a dotted domain not required (`admin@localhost`); compared lower-cased. */
export const IsEmailAddress = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.trim().toLowerCase() : value,
    ),
    IsEmail({ require_tld: false }, { message: '$property must be an e-mail address' }),
    MaxLength(320),
  );
