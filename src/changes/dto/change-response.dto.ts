import { ApiProperty } from '@nestjs/swagger';
import { isoTimestamp } from '../../database/timestamps.js';
import { RunActor } from '../../common/dto/run-actor.dto.js';
import {
  CHANGE_ACTIONS,
  CHANGE_OBJECT_TYPES,
  type ChangeAction,
  type ChangeObjectType,
  type ChangeRow,
} from '../../database/entities/change.entity.js';

/** One recorded write to one object. */
export class ChangeResponse {
  @ApiProperty({
    format: 'uuid',
    description: 'A UUIDv7 of `time`: the lists are newest first by it',
    example: '01a20ddf-cae0-7f3a-8b4c-5d6e00000000',
  })
  id: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-24T14:05:00.000Z' })
  time: string;

  @ApiProperty({ enum: CHANGE_ACTIONS, enumName: 'ChangeAction', example: 'update' })
  action: ChangeAction;

  @ApiProperty({ enum: CHANGE_OBJECT_TYPES, enumName: 'ChangeObjectType', example: 'asset' })
  objectType: ChangeObjectType;

  @ApiProperty({ example: 'web-01' })
  objectId: string;

  @ApiProperty({ type: RunActor, description: 'Who wrote it, as they were then' })
  actor: RunActor;

  @ApiProperty({ example: '5f0c8a8e-3d2b-4c1a-9e7f-6a5b4c3d2e1f' })
  requestId: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The ingestion run that wrote it; null for any other request',
    example: null,
  })
  runId: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      'The object as the API showed it before: null for a create; for an update only the fields that changed. Password hashes and API key secrets never appear.',
    example: { risk_score: 40 },
  })
  before: Record<string, unknown> | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description:
      'The object as the API showed it after: null for a delete; for an update only the fields that changed.',
    example: { risk_score: 90 },
  })
  after: Record<string, unknown> | null;
}

const text = JSON.stringify;

/**
 * A record as the JSON of its ChangeResponse. Written out rather than made an object for
 * JSON.stringify: `before` and `after` are stored as JSON text and go out as they are, not
 * parsed only to be serialized again, and a page is read often (an asset's history).
 */
export function toChangeJson(row: ChangeRow): string {
  const [
    id,
    time,
    action,
    objectType,
    objectId,
    userId,
    email,
    apiKeyId,
    apiKeyPrefix,
    requestId,
    runId,
    before,
    after,
  ] = row;
  return (
    `{"id":${text(id)},"time":"${isoTimestamp(time)}","action":${text(action)},` +
    `"objectType":${text(objectType)},"objectId":${text(objectId)},` +
    `"actor":{"userId":${text(userId)},"email":${text(email)},` +
    `"apiKeyId":${text(apiKeyId)},"apiKeyPrefix":${text(apiKeyPrefix)}},` +
    `"requestId":${text(requestId)},"runId":${text(runId)},` +
    `"before":${before ?? 'null'},"after":${after ?? 'null'}}`
  );
}
