import { ApiProperty } from '@nestjs/swagger';
import type { IngestCounts } from '../ingest-run.js';

const count = (description: string) =>
  ApiProperty({ type: 'integer', minimum: 0, description, example: 0 });

export class IngestStats implements IngestCounts {
  @count('Assets created')
  assetsCreated: number;

  /** Matched assets whose stored values changed; an identical item writes nothing. */
  @count('Matched assets whose stored values changed; an identical item writes nothing')
  assetsUpdated: number;

  @count('Assets deleted by deleteStale or replace')
  assetsDeleted: number;

  @count('Relations created')
  relationsCreated: number;

  @count('Matched relations whose stored values changed')
  relationsUpdated: number;

  /** Deleted explicitly or with a deleted asset. */
  @count('Relations deleted explicitly or with a deleted asset')
  relationsDeleted: number;

  /** Vulnerability records written. */
  @count('Vulnerability records written')
  vulnerabilities: number;

  /** Elapsed time with its unit, such as "412ms". */
  @ApiProperty({ description: 'Elapsed time with its unit', example: '412ms' })
  duration: string;
}

export class IngestResponse {
  @ApiProperty({ type: Boolean, enum: [true], example: true })
  success: true;

  @ApiProperty({ type: () => IngestStats })
  stats: IngestStats;
}
