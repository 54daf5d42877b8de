import { applyDecorators } from '@nestjs/common';
import { ValidateIf } from 'class-validator';

/**
 * For a field that is required on create and may be left out of an update: absent is fine,
 * but null is validated (and refused) rather than skipped as IsOptional would.
 */
export const OmittableButNotNull = () =>
  applyDecorators(ValidateIf((_object: object, value: unknown) => value !== undefined));
