import { stringify, type Options } from 'csv-stringify/sync';
import type { ExportFormat } from './export-format.js';
import { formulaSafe } from './spreadsheet-formulas.js';

/** Items an export reads at a time: a batch's answers and text are all it holds. */
export const EXPORT_BATCH_SIZE = 1000;

/** A CSV cell's value: null for an empty cell. */
export type CsvCell = string | number | null;

/** A column of an export's CSV: its name in the header row, and its cell for an item. */
export interface CsvColumn<T> {
  readonly name: string;
  cell(item: T): CsvCell;
}

const CSV_OPTIONS: Options = {
  // RFC 4180's line end.
  record_delimiter: '\r\n',
  // A value holding a lone line break (LF or CR) is quoted too, not only one holding CRLF.
  quoted_match: /[\r\n]/,
  cast: { string: formulaSafe },
};

/** Rows as CSV text, each ended by CRLF. */
export function csvText(records: readonly CsvCell[][]): string {
  return stringify(records as CsvCell[][], CSV_OPTIONS);
}

/**
 * The text of an export, a chunk per batch of items: CSV (the columns' header row, then a row
 * per item, the header alone when there is none) or NDJSON (each item as its JSON line).
 */
export async function* exportText<T>(
  format: ExportFormat,
  batches: AsyncIterable<T[]>,
  columns: readonly CsvColumn<T>[],
): AsyncGenerator<string> {
  let header: CsvCell[] | null = columns.map((column) => column.name);
  for await (const batch of batches) {
    if (batch.length === 0) continue;
    if (format === 'ndjson') {
      yield `${batch.map((item) => JSON.stringify(item)).join('\n')}\n`;
      continue;
    }
    const records = batch.map((item) => columns.map((column) => column.cell(item)));
    if (header !== null) records.unshift(header);
    header = null;
    yield csvText(records);
  }
  if (format === 'csv' && header !== null) yield csvText([header]);
}
