import { describe, expect, it } from '@jest/globals';
import type { ChangeRow } from '../../database/entities/change.entity.js';
import { toChangeJson } from './change-response.dto.js';

describe('toChangeJson', () => {
  const row: ChangeRow = [
    '019ab2c4-5e00-7000-8000-000000000001',
    '2026-11-25 14:05:00.123',
    'update',
    'asset',
    'web "01" \\ é\u0001',
    'user-1',
    'admin@localhost',
    null,
    null,
    'req-1',
    null,
    '{"risk_score":40,"name":"a \\"b\\""}',
    '{"risk_score":90.5,"tags":["x"]}',
  ];

  it('is the JSON of the record as the API shows it, stored JSON embedded as it is', () => {
    expect(JSON.parse(toChangeJson(row))).toEqual({
      id: '019ab2c4-5e00-7000-8000-000000000001',
      time: '2026-11-25T14:05:00.123Z',
      action: 'update',
      objectType: 'asset',
      objectId: 'web "01" \\ é\u0001',
      actor: { userId: 'user-1', email: 'admin@localhost', apiKeyId: null, apiKeyPrefix: null },
      requestId: 'req-1',
      runId: null,
      before: { risk_score: 40, name: 'a "b"' },
      after: { risk_score: 90.5, tags: ['x'] },
    });
  });

  it('shows a missing before or after as null, and a Date time (PostgreSQL) in ISO form', () => {
    const created: ChangeRow = [...row];
    created[1] = new Date('2026-11-25T14:05:00.123Z');
    created[2] = 'create';
    created[7] = 'key-1';
    created[8] = 'am_abc';
    created[10] = 'run-1';
    created[11] = null;
    const deleted: ChangeRow = [...row];
    deleted[2] = 'delete';
    deleted[12] = null;
    expect(JSON.parse(toChangeJson(created))).toMatchObject({
      time: '2026-11-25T14:05:00.123Z',
      actor: { apiKeyId: 'key-1', apiKeyPrefix: 'am_abc' },
      runId: 'run-1',
      before: null,
      after: { risk_score: 90.5, tags: ['x'] },
    });
    expect(JSON.parse(toChangeJson(deleted))).toMatchObject({ after: null });
  });
});
