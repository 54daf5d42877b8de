import { ApiProperty } from '@nestjs/swagger';
import { SeverityCounts } from './severity-counts.dto.js';

/** One UTC day of GET /api/findings/trend. */
export class FindingTrendEntry {
  @ApiProperty({ format: 'date', example: '2026-11-28' })
  date: string;

  @ApiProperty({
    type: () => SeverityCounts,
    description:
      'The findings open or accepted at the end of the day (today: now), by their current severity',
  })
  open: SeverityCounts;
}
