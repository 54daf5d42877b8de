import { CsvError, Parser } from 'csv-parse';
import type { ConvertedItem, RawAssetItem, ScannerConverter } from './converted-item.js';
import { ASSET_CSV_COLUMNS } from '../../assets/asset-csv-columns.js';
import { SPACED_LISTS } from '../../common/field-rules/identity-values.js';
import { formulaUnquoted } from '../../common/export/spreadsheet-formulas.js';
import { FormatError } from './format-error.js';
import { numberOrText } from './scan-values.js';

/** The asset fields a CSV header may name. */
const CSV_FIELDS: ReadonlySet<string> = new Set(
  ASSET_CSV_COLUMNS.filter((column) => column.ingested).map((column) => column.name),
);
/** The columns of identity lists and tags: values separated by spaces. */
const LISTS: ReadonlySet<string> = new Set(SPACED_LISTS);

/** The columns an export writes beside them, which a header may name and are ignored. */
const EXPORT_ONLY: ReadonlySet<string> = new Set(
  ASSET_CSV_COLUMNS.filter((column) => !column.ingested).map((column) => column.name),
);

const CSV_REFUSALS: Record<string, string> = {
  // csv-parse names this one without its CSV_ prefix.
  INVALID_OPENING_QUOTE: 'a quote opens inside a field that is not quoted',
  CSV_INVALID_CLOSING_QUOTE:
    'a closing quote is followed by something other than a comma or a line end',
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is never closed',
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE:
    'a closing quote is followed by something other than a comma or a line end',
};

/** Line breaks inside a record's fields (quoted fields keep them as written). */
function lineBreaks(record: string[]): number {
  let breaks = 0;
  for (const field of record) {
    for (let i = field.indexOf('\n'); i >= 0; i = field.indexOf('\n', i + 1)) breaks++;
    for (let i = field.indexOf('\r'); i >= 0; i = field.indexOf('\r', i + 1)) {
      if (field.charCodeAt(i + 1) !== 10) breaks++;
    }
  }
  return breaks;
}

/**
 * An asset table (RFC 4180, UTF-8, a BOM allowed) read with csv-parse: a header row naming
 * asset fields, then one asset item per row, named `line N` by the physical line it starts on
 * (the header is line 1). An empty cell leaves its field out; an empty line is skipped.
 */
export class CsvConverter implements ScannerConverter {
  readonly format = 'csv' as const;
  // Records are taken from the parser's buffer right after each write, so its stream side is
  // only a synchronous queue here.
  private readonly parser = new Parser({
    bom: true,
    relax_column_count: true,
    // Any line end, mixed: left to itself, csv-parse takes the first one it meets as the only
    // one, and a file mixing CRLF and LF would run two rows into one, or end cells with a CR.
    record_delimiter: ['\r\n', '\n', '\r'],
  });
  /** Decodes only to refuse bytes that are not UTF-8; csv-parse decodes the fields. */
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  /** Each column's field; null for one an export writes, which is ignored. */
  private header: (string | null)[] | null = null;
  /** The physical line the next record starts on. */
  private line = 1;

  constructor() {
    // Its errors are read from `errored` after each write; the event must not go unhandled.
    this.parser.on('error', () => undefined);
  }

  write(chunk: Uint8Array | string): ConvertedItem[] {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.checkUtf8(bytes, true);
    this.parser.write(bytes);
    return this.drain();
  }

  end(): ConvertedItem[] {
    this.checkUtf8(new Uint8Array(0), false);
    this.parser.end();
    const items = this.drain();
    if (this.header === null) throw new FormatError('the CSV body has no header row');
    return items;
  }

  private checkUtf8(bytes: Uint8Array, stream: boolean): void {
    try {
      this.decoder.decode(bytes, { stream });
    } catch {
      throw new FormatError('the CSV body is not valid UTF-8');
    }
  }

  private drain(): ConvertedItem[] {
    const items: ConvertedItem[] = [];
    for (let record = this.parser.read() as string[] | null; record !== null;) {
      const line = this.line;
      this.line += 1 + lineBreaks(record);
      const item = this.record(record, line);
      if (item) items.push(item);
      record = this.parser.read() as string[] | null;
    }
    const error = this.parser.errored;
    if (error) {
      const reason =
        error instanceof CsvError ? (CSV_REFUSALS[error.code] ?? error.message) : error.message;
      throw new FormatError(`line ${this.line}: ${reason}`);
    }
    return items;
  }

  private record(record: string[], line: number): ConvertedItem | null {
    if (record.length === 1 && record[0] === '') return null;
    if (this.header === null) {
      this.header = this.readHeader(record);
      return null;
    }
    const header = this.header;
    if (record.length !== header.length) {
      throw new FormatError(
        `line ${line} has ${record.length} fields; the header has ${header.length}`,
      );
    }
    const asset: Record<string, string | number | string[]> & RawAssetItem = {};
    record.forEach((written, column) => {
      const field = header[column];
      if (written === '' || field === null) return;
      // A cell an export wrote as text rather than as a formula is read as its value.
      const cell = formulaUnquoted(written);
      asset[field] =
        field === 'risk_score'
          ? (numberOrText(cell) ?? cell)
          : LISTS.has(field)
            ? cell.split(/\s+/).filter((value) => value !== '')
            : cell;
    });
    return { part: 'assets', path: `line ${line}`, value: asset };
  }

  private readHeader(record: string[]): (string | null)[] {
    const seen = new Set<string>();
    return record.map((cell, column) => {
      const name = cell.trim();
      if (!CSV_FIELDS.has(name) && !EXPORT_ONLY.has(name)) {
        throw new FormatError(
          name === ''
            ? `line 1: column ${column + 1} has no name`
            : `line 1: ${JSON.stringify(name)} is not an asset field (${[...CSV_FIELDS].join(', ')}) nor a column an export writes (${[...EXPORT_ONLY].join(', ')})`,
        );
      }
      if (seen.has(name)) throw new FormatError(`line 1: ${name} is named twice`);
      seen.add(name);
      return CSV_FIELDS.has(name) ? name : null;
    });
  }
}
