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

  @ApiProperty({
    format: 'uuid',
    description: 'The id of this run, as listed by GET /api/integrations/runs',
    example: '01936f0e-7c1a-7b3e-9d4f-2a6c8e0b1d53',
  })
  runId: string;

  @ApiProperty({ type: () => IngestStats })
  stats: IngestStats;
}
