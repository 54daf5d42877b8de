import { InvalidInputError } from '../../common/errors/invalid-input.error.js';

/**
 * A scanner body the converters refuse as a whole (not well formed, a DTD, another root, bad
 * CSV, a header naming no asset field). Its message is the sentence for the client. A domain
 * error, free of Nest, so that a converter can throw it in a worker thread; the worker sends its
 * message as `refused` and the caller throws a FormatError again, so its kind survives.
 */
export class FormatError extends InvalidInputError {
  override readonly name: string = 'FormatError';
}
