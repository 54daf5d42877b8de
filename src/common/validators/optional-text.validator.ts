import { applyDecorators } from '@nestjs/common';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { HasNoNul } from './text.validator.js';

/** An optional string of at most `max` characters; null clears the value. */
export const IsOptionalText = (max = 255) =>
  applyDecorators(IsOptional(), IsString(), MaxLength(max), HasNoNul());
