import { DomainError } from './domain-error.js';

/** The request is well formed but cannot be carried out as it stands. */
export class UnprocessableError extends DomainError {
  override readonly name: string = 'UnprocessableError';
  readonly kind = 'unprocessable';
}
