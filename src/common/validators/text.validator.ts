import { applyDecorators } from '@nestjs/common';
import { IsString, Length } from 'class-validator';

/** A required, non-empty string of at most `max` characters. */
export const IsText = (max = 255) => applyDecorators(IsString(), Length(1, max));
