import { ApiProperty } from '@nestjs/swagger';
import { RUN_STATUSES, type RunStatus } from '../../database/entities/ingestion-run.entity.js';
import type { FeedState } from '../../database/repositories/feeds.repository.js';

export class FeedResponse {
  @ApiProperty({ description: "The feed's name: a run's `source`", example: 'nmap-dmz' })
  name: string;

  @ApiProperty({ type: 'integer', description: "How many assets' sources hold it" })
  assets: number;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  lastRunAt: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'The end of its last succeeded run that was no dry run',
  })
  lastSucceededAt: string | null;

  @ApiProperty({ enum: RUN_STATUSES, enumName: 'RunStatus', nullable: true })
  lastStatus: RunStatus | null;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 60, maximum: 31536000 })
  expectedEverySeconds: number | null;

  @ApiProperty({
    description:
      'expectedEverySeconds is set and more than that has passed since lastSucceededAt (or since it was set, for a feed that never succeeded)',
  })
  late: boolean;
}

/** Whether `feed` is late at `now`. */
export function isLate(feed: FeedState, now: Date): boolean {
  if (feed.expectedEverySeconds === null) return false;
  const since = feed.lastSucceededAt ?? feed.expectedSince;
  if (since === null) return false;
  return now.getTime() - Date.parse(since) > feed.expectedEverySeconds * 1000;
}

export function toFeedResponse(feed: FeedState, now: Date): FeedResponse {
  return {
    name: feed.name,
    assets: feed.assets,
    lastRunAt: feed.lastRunAt,
    lastSucceededAt: feed.lastSucceededAt,
    lastStatus: feed.lastStatus,
    expectedEverySeconds: feed.expectedEverySeconds,
    late: isLate(feed, now),
  };
}
