/*
 * The ingestion route's path and media types, for the HTTP layer (body parsers, the OpenAPI
 * document) as well as the controller: a module of its own, importing nothing, so that those
 * can read them without loading the controller and its dependencies (an import cycle).
 */

export const INGEST_PATH = '/api/integrations/ingest';

/** The scanner formats' media types (formats/convert-body.ts); JSON besides. */
export const SCANNER_MEDIA_TYPES = ['application/xml', 'text/xml', 'text/csv'];
