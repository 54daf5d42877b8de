import { applyDecorators } from '@nestjs/common';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { MIN_PASSWORD_LENGTH } from '../../config/app-config.js';

/** A new password: at least 12 characters; capped so that hashing stays bounded. */
export const IsNewPassword = () =>
  applyDecorators(IsString(), MinLength(MIN_PASSWORD_LENGTH), MaxLength(256));
