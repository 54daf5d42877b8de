// A spreadsheet runs a cell that begins with =, +, -, @, a tab or a carriage return as a
// formula (CSV injection): an export writes such a value with a leading ', which spreadsheets
// show as text, and the CSV ingestion takes that quote off again. A value that itself begins
// with quotes before one of those characters gets one more too, so that every value comes back
// as it was exported.
const FORMULA_START = /^'*[=+\-@\t\r]/;
const QUOTED_FORMULA = /^'+[=+\-@\t\r]/;

/** A CSV cell's text as an export writes it. */
export function formulaSafe(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A CSV cell as the ingestion reads it: the quote formulaSafe adds taken off (`'plain` stays). */
export function formulaUnquoted(cell: string): string {
  return QUOTED_FORMULA.test(cell) ? cell.slice(1) : cell;
}
