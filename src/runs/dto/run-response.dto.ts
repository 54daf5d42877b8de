import { ApiProperty } from '@nestjs/swagger';
import { IngestStats } from '../../ingest/dto/ingest-response.dto.js';
import { INGEST_MODES } from '../../ingest/ingest-payload.js';
import type { IngestRunOptions } from '../../ingest/ingest-hooks.js';
import {
  RUN_STATUSES,
  type IngestionRun,
  type RunStatus,
} from '../../database/entities/ingestion-run.entity.js';
import { RunActor } from '../../common/dto/run-actor.dto.js';
import { RUN_FORMATS } from '../../common/ingest-formats.js';

const UNTIL_READ = "null when the run ended before the body's options were read";

/** One ingestion request, whatever its end. */
export class RunResponse {
  @ApiProperty({ format: 'uuid', example: '01936f0e-7c1a-7b3e-9d4f-2a6c8e0b1d53' })
  id: string;

  @ApiProperty({
    enum: RUN_STATUSES,
    enumName: 'RunStatus',
    description:
      'running; succeeded (200); rejected (answered 4xx); failed (answered 5xx, or its process stopped while it ran)',
    example: 'succeeded',
  })
  status: RunStatus;

  @ApiProperty({ type: Boolean, nullable: true, description: UNTIL_READ, example: false })
  dryRun: boolean | null;

  @ApiProperty({
    enum: RUN_FORMATS,
    enumName: 'RunFormat',
    description: 'The body\'s format; "json" until it is known',
    example: 'json',
  })
  format: IngestRunOptions['format'];

  @ApiProperty({
    enum: INGEST_MODES,
    enumName: 'IngestMode',
    nullable: true,
    description: UNTIL_READ,
    example: 'merge',
  })
  mode: IngestRunOptions['mode'] | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The feed named by options.source; null without one, or ' + UNTIL_READ,
    example: 'nmap-dmz',
  })
  source: string | null;

  @ApiProperty({ type: Boolean, nullable: true, description: UNTIL_READ, example: true })
  deleteStale: boolean | null;

  @ApiProperty({ type: () => RunActor })
  actor: RunActor;

  @ApiProperty({
    description: "The answer's X-Request-Id, also in the service's log line",
    example: 'ci-4711-ingest',
  })
  requestId: string;

  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 0,
    description: 'Size of the request body; null while it is read, or when it could not be',
    example: 48213,
  })
  bodyBytes: number | null;

  @ApiProperty({ format: 'date-time' })
  startedAt: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'null while running',
  })
  finishedAt: string | null;

  @ApiProperty({
    type: () => IngestStats,
    nullable: true,
    description: 'The stats of the answer; null unless succeeded',
  })
  stats: IngestStats | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The answer's error sentence; null while running and when succeeded",
    example: 'assets[3].ip must be an IP address',
  })
  error: string | null;
}

export function toRunResponse(run: IngestionRun): RunResponse {
  return {
    id: run.id,
    status: run.status,
    dryRun: run.dryRun,
    format: run.format,
    mode: run.mode,
    source: run.source,
    deleteStale: run.deleteStale,
    actor: { ...run.actor },
    requestId: run.requestId,
    bodyBytes: run.bodyBytes,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    stats: run.stats as IngestStats | null,
    error: run.error,
  };
}
