import { applyDecorators } from '@nestjs/common';
import { ValidateBy, type ValidationArguments } from 'class-validator';
import { readEntryList, type EntryList } from '../field-rules/entry-list.js';
import { SkipIfUndefined } from './skip-if-undefined.validator.js';

/**
 * An asset's list of `shape`'s entries (`services`, `vulnerabilities`), checked as ingestion
 * checks it (readEntryList), the first bad entry named by its path (`services[1].port must be
 * ...`). May be left out, not nulled.
 */
export function IsEntryList<T>(shape: EntryList<T>) {
  const problemOf = (args?: ValidationArguments) => {
    const read = readEntryList(args?.value, args?.property ?? 'list', shape);
    return 'problem' in read ? read.problem : null;
  };
  return applyDecorators(
    SkipIfUndefined(),
    ValidateBy({
      name: 'entryList',
      validator: {
        validate: (_value: unknown, args?: ValidationArguments) => problemOf(args) === null,
        defaultMessage: (args?: ValidationArguments) => problemOf(args) ?? 'is invalid',
      },
    }),
  );
}
