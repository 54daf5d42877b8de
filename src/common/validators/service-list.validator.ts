import { applyDecorators } from '@nestjs/common';
import { ValidateBy, type ValidationArguments } from 'class-validator';
import { readServiceList } from '../field-rules/service-list.js';
import { SkipIfUndefined } from './skip-if-undefined.validator.js';

const problemOf = (args?: ValidationArguments) => {
  const read = readServiceList(args?.value, args?.property ?? 'services');
  return 'problem' in read ? read.problem : null;
};

/**
 * An asset's `services`, checked as ingestion checks them (readServiceList), the first bad
 * entry named by its path (`services[1].port must be ...`). May be left out, not nulled.
 */
export const IsServiceList = () =>
  applyDecorators(
    SkipIfUndefined(),
    ValidateBy({
      name: 'serviceList',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) => problemOf(args) === null,
        defaultMessage: (args?: ValidationArguments) => problemOf(args) ?? 'is invalid',
      },
    }),
  );
