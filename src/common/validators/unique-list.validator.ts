import { ValidateBy, type ValidationArguments } from 'class-validator';

/**
 * The problem of a list of 1 to `maxItems` distinct entries, each checked by `entryProblem`
 * (the first bad one named by its index: `sources[2] must be ...`), or null.
 */
function listProblem(
  value: unknown,
  property: string,
  maxItems: number,
  entryProblem: (entry: unknown) => string | null,
): string | null {
  if (!Array.isArray(value) || value.length === 0 || value.length > maxItems) {
    return `${property} must be a list of 1 to ${maxItems} entries`;
  }
  const seen = new Set<unknown>();
  for (const [index, entry] of value.entries()) {
    const problem = entryProblem(entry);
    if (problem) return `${property}[${index}] ${problem}`;
    if (seen.has(entry)) return `${property}[${index}] is listed twice`;
    seen.add(entry);
  }
  return null;
}

/** A list of 1 to `maxItems` distinct entries, each one `entryProblem` finds nothing wrong with. */
export const IsUniqueList = (maxItems: number, entryProblem: (entry: unknown) => string | null) =>
  ValidateBy({
    name: 'uniqueList',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) =>
        listProblem(value, args?.property ?? 'list', maxItems, entryProblem) === null,
      defaultMessage: (args?: ValidationArguments) =>
        listProblem(args?.value, args?.property ?? 'list', maxItems, entryProblem) ?? 'is invalid',
    },
  });
