/**
 * A scanner body the converters refuse as a whole (not well formed, a DTD, another root, bad
 * CSV, a header naming no asset field). Its message is the sentence for the client; the HTTP
 * layer answers it 400. Kept free of Nest so that a converter can run in a worker thread.
 */
export class FormatError extends Error {
  override readonly name = 'FormatError';
}
