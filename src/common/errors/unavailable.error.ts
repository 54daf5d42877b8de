import { DomainError } from './domain-error.js';

/** The service cannot serve the request now (shutting down, its database not answering). */
export class UnavailableError extends DomainError {
  override readonly name: string = 'UnavailableError';
  readonly kind = 'unavailable';
}
