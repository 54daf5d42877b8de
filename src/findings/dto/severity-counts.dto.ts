import { ApiProperty } from '@nestjs/swagger';
import type { Severity } from '../../common/field-rules/finding-values.js';

/** A count of findings for each severity. */
export class SeverityCounts implements Record<Severity, number> {
  @ApiProperty({ type: 'integer', minimum: 0 })
  critical: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  high: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  medium: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  low: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  none: number;
}

/** Every severity at 0. */
export function noCounts(): SeverityCounts {
  return { critical: 0, high: 0, medium: 0, low: 0, none: 0 };
}
