import { DomainError } from './domain-error.js';

/** The request's input is refused: malformed, out of range, or inconsistent with itself. */
export class InvalidInputError extends DomainError {
  override readonly name: string = 'InvalidInputError';
  readonly kind = 'invalid';
}
