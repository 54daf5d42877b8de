import { DomainError } from './domain-error.js';

/** The caller is known but may not do this. */
export class ForbiddenError extends DomainError {
  override readonly name: string = 'ForbiddenError';
  readonly kind = 'forbidden';
}
