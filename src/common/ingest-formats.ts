/*
 * The ingestion's body formats, named once: the run record, the `?format=` parameter, the
 * converters' map, the HTTP layer's body parsers and the OpenAPI document all read them from
 * here (a module importing nothing, so that the data layer and the HTTP layer may too).
 */

/** The scanner formats, as `?format=` and a run's `format` name them. */
export const SCANNER_FORMATS = [
  'nmap',
  'nessus',
  'csv',
  'greenbone',
  'masscan',
  'nuclei',
  'trivy',
] as const;

export type ScannerFormat = (typeof SCANNER_FORMATS)[number];

/** A run's format: the native JSON payload, or a scanner's. */
export type RunFormat = 'json' | ScannerFormat;

export const RUN_FORMATS: readonly RunFormat[] = ['json', ...SCANNER_FORMATS];

/** The media types of an XML body, whose root element tells its format. */
export const XML_MEDIA_TYPES = ['application/xml', 'text/xml'] as const;
export const CSV_MEDIA_TYPE = 'text/csv';
export const JSON_MEDIA_TYPE = 'application/json';
export const NDJSON_MEDIA_TYPE = 'application/x-ndjson';

/**
 * The media types each format's body may come as. An XML body tells its format by its root
 * element and CSV by its type; a JSON-based one needs `?format=` (a JSON body without it is the
 * native payload).
 */
export const FORMAT_MEDIA_TYPES: Readonly<Record<ScannerFormat, readonly string[]>> = {
  nmap: XML_MEDIA_TYPES,
  nessus: XML_MEDIA_TYPES,
  csv: [CSV_MEDIA_TYPE],
  greenbone: XML_MEDIA_TYPES,
  masscan: [...XML_MEDIA_TYPES, JSON_MEDIA_TYPE],
  nuclei: [NDJSON_MEDIA_TYPE, JSON_MEDIA_TYPE],
  trivy: [JSON_MEDIA_TYPE],
};

/** The media types besides JSON that only the ingestion takes (a scanner format's). */
export const SCANNER_MEDIA_TYPES: readonly string[] = [
  ...new Set(Object.values(FORMAT_MEDIA_TYPES).flat()),
].filter((type) => type !== JSON_MEDIA_TYPE);

export function isScannerFormat(name: string): name is ScannerFormat {
  return (SCANNER_FORMATS as readonly string[]).includes(name);
}

/** A media type without its parameters, in lower case. */
export function mediaTypeEssence(mediaType: string): string {
  return mediaType.split(';')[0].trim().toLowerCase();
}
