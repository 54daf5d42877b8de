/**
 * A scanner body the converters refuse as a whole (not well formed, a DTD, another root, bad
 * CSV, a header naming no asset field). Its message is the sentence for the client; the HTTP
 * layer answers it 400 (`statusCode`). Kept free of Nest so that a converter can run in a worker thread.
 */
export class FormatError extends Error {
  override readonly name = 'FormatError';
  /** Read by the error filter, as on Fastify's own client errors. */
  readonly statusCode = 400;
}
