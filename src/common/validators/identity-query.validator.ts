import { applyDecorators } from '@nestjs/common';
import { IsOptional, ValidateBy, type ValidationArguments } from 'class-validator';

/**
 * An optional query value that `read` understands (a prefix, a MAC address, a host name): else
 * a 400 saying what it must be (`$property must be ...`).
 */
export const IsOptionalQueryValue = (read: (value: string) => unknown, what: string) =>
  applyDecorators(
    IsOptional(),
    ValidateBy({
      name: 'queryValue',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && read(value) !== null,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'value'} must be ${what}`,
      },
    }),
  );
