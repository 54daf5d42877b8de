import { ApiProperty } from '@nestjs/swagger';
import {
  FINDING_STATUSES,
  SEVERITIES,
  type FindingStatus,
  type Severity,
} from '../../common/field-rules/finding-values.js';
import type { FindingRow } from '../../database/tables/findings.table.js';
import { isoTimestamp, isoTimestampOrNull } from '../../database/timestamps.js';
import { effectiveStatus, type FindingDueDates } from '../finding-due-dates.js';

/** Who triaged a finding, as they were then (an actor as in a run). */
export class FindingActor {
  @ApiProperty({ format: 'uuid' })
  userId: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'null for a service account',
    example: 'alice@example.com',
  })
  email: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  apiKeyId: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'am_3f9a' })
  apiKeyPrefix: string | null;
}

/** A finding as its change records show it: its stored state, without what the clock derives. */
export class FindingRecord {
  @ApiProperty({ format: 'uuid', example: '0193a4f2-7c1e-7d3a-9b0e-2f4c1d5e6a7b' })
  id: string;

  @ApiProperty({ example: 'web-1' })
  assetId: string;

  @ApiProperty({ example: 'CVE-2024-3094' })
  vulnId: string;

  @ApiProperty({ type: Number, nullable: true, minimum: 0, maximum: 10, example: 10 })
  score: number | null;

  @ApiProperty({
    enum: SEVERITIES,
    enumName: 'Severity',
    description:
      'From the score: critical ≥ 9.0, high ≥ 7.0, medium ≥ 4.0, low > 0, none for 0 or null',
  })
  severity: Severity;

  @ApiProperty({ type: String, nullable: true, example: 'xz backdoor' })
  summary: string | null;

  @ApiProperty({ type: String, format: 'date', nullable: true, example: '2024-03-29' })
  publishedDate: string | null;

  @ApiProperty({
    enum: FINDING_STATUSES,
    enumName: 'FindingStatus',
    description: 'An acceptance whose acceptedUntil has passed reads as open',
  })
  status: FindingStatus;

  @ApiProperty({
    type: [String],
    description: 'The feeds that reported it, in the order they first did',
    example: ['nmap-dmz'],
  })
  sources: string[];

  @ApiProperty({ format: 'date-time' })
  firstSeenAt: string;

  @ApiProperty({ format: 'date-time' })
  lastSeenAt: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'null unless fixed',
  })
  fixedAt: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'The last reopening',
  })
  reopenedAt: string | null;

  @ApiProperty({ type: 'integer', minimum: 0 })
  reopenCount: number;

  @ApiProperty({ type: String, nullable: true, description: "The triage's words" })
  reason: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'null unless accepted',
  })
  acceptedUntil: string | null;

  @ApiProperty({ type: () => FindingActor, nullable: true })
  triagedBy: FindingActor | null;
}

export class FindingResponse extends FindingRecord {
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      '(reopenedAt, else firstSeenAt) + the days FINDING_SLA_DAYS gives its severity; null for severity none',
  })
  dueAt: string | null;

  @ApiProperty({ description: 'Whether it counts as open and its due date has passed' })
  overdue: boolean;
}

const asDate = (value: Date | string | null): Date | null =>
  value === null ? null : new Date(isoTimestamp(value));

/** A stored finding and its `sources` as its change records show it. */
export function toFindingRecord(row: FindingRow, sources: string[]): FindingRecord {
  return {
    id: row.id,
    assetId: row.asset_id,
    vulnId: row.vuln_id,
    score: row.score,
    severity: row.severity,
    summary: row.summary,
    publishedDate: row.published_date,
    status: row.status,
    sources,
    firstSeenAt: isoTimestamp(row.first_seen_at),
    lastSeenAt: isoTimestamp(row.last_seen_at),
    fixedAt: isoTimestampOrNull(row.fixed_at),
    reopenedAt: isoTimestampOrNull(row.reopened_at),
    reopenCount: Number(row.reopen_count),
    reason: row.reason,
    acceptedUntil: isoTimestampOrNull(row.accepted_until),
    triagedBy: row.triaged_by === null ? null : (JSON.parse(row.triaged_by) as FindingActor),
  };
}

/** A stored finding as the API shows it at `now`, its due date from `due`. */
export function toFindingResponse(
  row: FindingRow,
  sources: string[],
  due: FindingDueDates,
  now: Date,
): FindingResponse {
  const record = toFindingRecord(row, sources);
  const status = effectiveStatus(row.status, asDate(row.accepted_until), now);
  const dueAt = due.dueAt(row.score, asDate(row.reopened_at ?? row.first_seen_at)!);
  return {
    ...record,
    status,
    // An acceptance past its date reads as open: it is accepted until no longer (its reason stays).
    acceptedUntil: status === 'accepted' ? record.acceptedUntil : null,
    dueAt: dueAt === null ? null : dueAt.toISOString(),
    overdue: status === 'open' && dueAt !== null && now > dueAt,
  };
}
