import { ValidateIf } from 'class-validator';

/**
 * Validates the value unless it is absent: a field that may be left out but not nulled, such as
 * one with a default. Null is validated, hence refused, where IsOptional would let it through.
 */
export const SkipIfUndefined = () =>
  ValidateIf((_object: object, value: unknown) => value !== undefined);
