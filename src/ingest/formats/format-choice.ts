import {
  CSV_MEDIA_TYPE,
  FORMAT_MEDIA_TYPES,
  isScannerFormat,
  JSON_MEDIA_TYPE,
  mediaTypeEssence,
  NDJSON_MEDIA_TYPE,
  SCANNER_FORMATS,
  type ScannerFormat,
  XML_MEDIA_TYPES,
} from '../../common/ingest-formats.js';
import { InvalidInputError } from '../../common/errors/invalid-input.error.js';

const XML_TYPES: ReadonlySet<string> = new Set(XML_MEDIA_TYPES);

/** A scanner body's kind: its media type, and its format when known before reading it. */
export interface ScannerBodyKind {
  /** The media type without parameters, in lower case. */
  mediaType: string;
  /** Named by `?format=`, or by the media type (CSV); null for XML without `?format=` (its root tells). */
  format: ScannerFormat | null;
}

/**
 * How to read a body of `mediaType` with the query's `format` (undefined when absent): as a
 * scanner format's, or null for the native JSON payload (a JSON body without `?format=`).
 * Refuses (400) an unknown format, or one that is never sent as this media type.
 */
export function chooseFormat(mediaType: string, requested: unknown): ScannerBodyKind | null {
  const type = mediaTypeEssence(mediaType);
  if (requested === undefined) {
    if (type === NDJSON_MEDIA_TYPE) {
      throw new InvalidInputError(
        `an ${NDJSON_MEDIA_TYPE} body needs ?format= to name its format (nuclei)`,
      );
    }
    if (XML_TYPES.has(type)) return { mediaType: type, format: null };
    if (type === CSV_MEDIA_TYPE) return { mediaType: type, format: 'csv' };
    return null;
  }
  if (typeof requested !== 'string') throw new InvalidInputError('format must be given once');
  if (!isScannerFormat(requested)) {
    throw new InvalidInputError(`format must be one of ${SCANNER_FORMATS.join(', ')}`);
  }
  const types = FORMAT_MEDIA_TYPES[requested];
  if (!types.includes(type)) {
    throw new InvalidInputError(
      `format=${requested} takes a body of type ${types.join(' or ')}, not ${type || 'none'}`,
    );
  }
  return { mediaType: type, format: requested };
}

/** Whether a body of this kind is JSON-based (read by JsonStream rather than saxes or csv-parse). */
export function isJsonBody(kind: ScannerBodyKind): boolean {
  return kind.mediaType === JSON_MEDIA_TYPE || kind.mediaType === NDJSON_MEDIA_TYPE;
}
