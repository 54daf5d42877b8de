import { readIdentityList, type SpacedList } from '../field-rules/identity-values.js';
import { ChecksProblem } from './problem-check.validator.js';

/**
 * An asset's identity list (`addresses`, `macAddresses`, `hostnames`) or its `tags`, checked as
 * ingestion checks it (readIdentityList), the first bad entry named by its index. May be left
 * out, not nulled; the service normalizes the values.
 */
export function IsIdentityList(list: SpacedList) {
  return ChecksProblem('identityList', (value, property) => {
    const read = readIdentityList(list, value, property ?? list);
    return 'problem' in read ? read.problem : null;
  });
}
