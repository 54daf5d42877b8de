import { applyDecorators } from '@nestjs/common';
import { IsString, Length, Matches } from 'class-validator';

// PostgreSQL refuses NUL in text: refused here as bad input rather than failing there as a 500.
export const HasNoNul = () =>
  Matches(/^[^\0]*$/, { message: '$property must not contain NUL characters' });

/** A required, non-empty string of at most `max` characters. */
export const IsText = (max = 255) => applyDecorators(IsString(), Length(1, max), HasNoNul());
