import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy, type ValidationArguments } from 'class-validator';

/**
 * A query parameter holding one value or a comma-separated list of them, each one of `values`:
 * the list of its items. A value that is not one is named in the message.
 */
export const IsQueryList = (values: readonly string[]) =>
  applyDecorators(
    IsOptional(),
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' ? value.split(',') : value,
    ),
    ValidateBy({
      name: 'isQueryList',
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) && value.every((item) => values.includes(item as string)),
        defaultMessage: (args?: ValidationArguments) => {
          const unknown = Array.isArray(args?.value)
            ? (args.value as unknown[]).find((item) => !values.includes(item as string))
            : undefined;
          const named = typeof unknown === 'string' ? ` ("${unknown}" is not one)` : '';
          return `$property must be one or more of ${values.join(', ')}, separated by commas${named}`;
        },
      },
    }),
  );
