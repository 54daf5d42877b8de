import { DomainError } from './domain-error.js';

/** The request clashes with what is stored, or with a request still running. */
export class ConflictError extends DomainError {
  override readonly name: string = 'ConflictError';
  readonly kind = 'conflict';
}
