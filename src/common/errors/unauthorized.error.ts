import { DomainError } from './domain-error.js';

/** The caller's credentials do not prove who they are. */
export class UnauthorizedError extends DomainError {
  override readonly name: string = 'UnauthorizedError';
  readonly kind = 'unauthorized';
}
