/*
 * The ingestion route's path and media types, for the HTTP layer (body parsers, the OpenAPI
 * document) as well as the controller: a module of its own, importing nothing but the format list, so that those
 * can read them without loading the controller and its dependencies (an import cycle).
 */

export const INGEST_PATH = '/api/integrations/ingest';

/** The scanner formats' media types (common/ingest-formats.ts); JSON besides. */
export { SCANNER_MEDIA_TYPES } from '../common/ingest-formats.js';
