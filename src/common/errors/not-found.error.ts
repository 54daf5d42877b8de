import { DomainError } from './domain-error.js';

/** What the request names does not exist. */
export class NotFoundError extends DomainError {
  override readonly name: string = 'NotFoundError';
  readonly kind = 'not-found';
}
