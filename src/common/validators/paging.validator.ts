import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

export const MAX_PAGE_SIZE = 1000;

/** `limit` of a list's query string: an integer from 1 to 1000. */
export const IsPageLimit = () =>
  applyDecorators(
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(1),
    Max(MAX_PAGE_SIZE),
  );

/** `offset` of a list's query string: an integer from 0. */
export const IsPageOffset = () =>
  applyDecorators(
    IsOptional(),
    Type(() => Number),
    IsInt(),
    Min(0),
  );
