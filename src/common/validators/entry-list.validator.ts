import { readEntryList, type EntryList } from '../field-rules/entry-list.js';
import { ChecksProblem } from './problem-check.validator.js';

/**
 * An asset's list of `shape`'s entries (`services`, `vulnerabilities`), checked as ingestion
 * checks it (readEntryList), the first bad entry named by its path (`services[1].port must be
 * ...`). May be left out, not nulled.
 */
export function IsEntryList<T>(shape: EntryList<T>) {
  return ChecksProblem('entryList', (value, property) => {
    const read = readEntryList(value, property ?? 'list', shape);
    return 'problem' in read ? read.problem : null;
  });
}
