import { ApiProperty } from '@nestjs/swagger';
import type { IngestCounts } from '../ingest-run.js';
import { IngestChangesDto } from './ingest-changes.dto.js';

const count = (description: string) =>
  ApiProperty({ type: 'integer', minimum: 0, description, example: 0 });

export class IngestStats implements IngestCounts {
  @count('Assets created')
  assetsCreated: number;

  /** Matched assets whose stored values changed; an identical item writes nothing. */
  @count(
    "Matched assets whose stored values changed (fields, vulnerabilities, services, sources), and those deleteStale keeps with the payload's source taken out of their sources",
  )
  assetsUpdated: number;

  @count(
    'Matched assets whose stored values did not change (their lastSeenAt alone may move; updatedAt stays)',
  )
  assetsUnchanged: number;

  @count('Assets deleted by deleteStale or replace')
  assetsDeleted: number;

  @count('Relations created')
  relationsCreated: number;

  @count('Matched relations whose stored values changed')
  relationsUpdated: number;

  @count('Matched relations whose stored values did not change')
  relationsUnchanged: number;

  /** Deleted explicitly or with a deleted asset. */
  @count('Relations deleted explicitly or with a deleted asset')
  relationsDeleted: number;

  /** Vulnerability records written. */
  @count('Vulnerability records written')
  vulnerabilities: number;

  @count('Findings opened: vulnerabilities reported on an asset for the first time')
  findingsOpened: number;

  @count('Fixed findings reported again, and so reopened')
  findingsReopened: number;

  @count('Open or accepted findings fixed: no longer reported (by their last feed, with a source)')
  findingsFixed: number;

  /** Elapsed time with its unit, such as "412ms". */
  @ApiProperty({ description: 'Elapsed time with its unit', example: '412ms' })
  duration: string;
}

export class IngestResponse {
  @ApiProperty({ type: Boolean, enum: [true], example: true })
  success: true;

  @ApiProperty({
    format: 'uuid',
    description: 'The run this ingestion is recorded as',
    example: '0193a4f2-7c1e-7d3a-9b0e-2f4c1d5e6a7b',
  })
  runId: string;

  @ApiProperty({
    description: 'true when options.dryRun asked for a plan only: nothing was written',
    example: false,
  })
  dryRun: boolean;

  @ApiProperty({ type: () => IngestStats, description: 'The full counts (not cut like changes)' })
  stats: IngestStats;

  @ApiProperty({
    type: () => IngestChangesDto,
    description:
      'What the run changed (or, dry, would change): at most 100 entries per list, created and updated ones in payload order, deleted ones in id order',
    example: {
      assets: {
        created: [{ id: 'web-2', name: 'web-2' }],
        updated: [
          {
            id: 'fw-1',
            name: 'fw-1',
            fields: {
              ip: ['10.0.0.1', '10.0.0.11'],
              sources: [['cmdb'], ['cmdb', 'nmap-dmz']],
              vulnerabilities: [
                [],
                [
                  {
                    id: 'CVE-2024-3400',
                    score: 10,
                    summary: 'PAN-OS RCE',
                    publishedDate: '2024-04-12',
                  },
                ],
              ],
            },
          },
        ],
        deleted: [{ id: 'old-host', name: 'old-host' }],
      },
      relations: {
        created: [
          {
            id: '0193a4f2-7c1e-7d3a-9b0e-2f4c1d5e6a7b',
            sourceAssetId: 'web-2',
            targetAssetId: 'fw-1',
            type: 'route',
          },
        ],
        updated: [
          {
            id: '0193a4f2-7c1e-7d3a-9b0e-2f4c1d5e6a7c',
            sourceAssetId: 'web-1',
            targetAssetId: 'fw-1',
            type: 'route',
            fields: { toPorts: ['443', '443,8443'] },
          },
        ],
        deleted: [],
      },
      truncated: false,
    },
  })
  changes: IngestChangesDto;
}
