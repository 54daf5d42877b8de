import { applyDecorators } from '@nestjs/common';
import { ValidateBy, type ValidationArguments } from 'class-validator';
import { readIdentityList, type IdentityList } from '../field-rules/identity-values.js';
import { SkipIfUndefined } from './skip-if-undefined.validator.js';

/**
 * An asset's identity list (`addresses`, `macAddresses`, `hostnames`), checked as ingestion
 * checks it (readIdentityList), the first bad entry named by its index. May be left out, not
 * nulled; the service normalizes the values.
 */
export function IsIdentityList(list: IdentityList) {
  const problemOf = (args?: ValidationArguments) => {
    const read = readIdentityList(list, args?.value, args?.property ?? list);
    return 'problem' in read ? read.problem : null;
  };
  return applyDecorators(
    SkipIfUndefined(),
    ValidateBy({
      name: 'identityList',
      validator: {
        validate: (_value: unknown, args?: ValidationArguments) => problemOf(args) === null,
        defaultMessage: (args?: ValidationArguments) => problemOf(args) ?? 'is invalid',
      },
    }),
  );
}
