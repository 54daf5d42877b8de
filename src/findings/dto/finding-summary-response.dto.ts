import { ApiProperty } from '@nestjs/swagger';
import { SeverityCounts } from './severity-counts.dto.js';

/** GET /api/findings/summary: the findings the filters keep, counted. */
export class FindingSummaryResponse {
  @ApiProperty({
    type: () => SeverityCounts,
    description:
      'Open findings by severity (an acceptance past its acceptedUntil counts as open, a current one does not)',
  })
  open: SeverityCounts;

  @ApiProperty({
    type: () => SeverityCounts,
    description: 'Those of the open findings whose due date has passed, by severity',
  })
  overdue: SeverityCounts;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Accepted until a time to come' })
  accepted: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  falsePositive: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  fixed: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'First seen in the last 30 days, whatever their status now',
  })
  openedLast30Days: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Fixed, with fixedAt in the last 30 days',
  })
  fixedLast30Days: number;
}
