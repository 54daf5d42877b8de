/**
 * What went wrong, in the domain's terms: the edge (AllExceptionsFilter) alone turns a kind into
 * an HTTP status.
 */
export type DomainErrorKind =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'unprocessable'
  | 'unavailable';

/**
 * An error the domain expects and the client is told of: its message is the sentence of the
 * answer, word for word. Free of Nest and HTTP, so that services, the ingestion's stages and
 * worker threads can throw it.
 */
export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
}
