import { describe, expect, it } from '@jest/globals';
import { CHANGE_SET_INSERT_COLUMNS } from './change-sets.table.js';

describe('the change_sets table', () => {
  it("inserts every column but the generated id, the actor's in the table's order", () => {
    expect(CHANGE_SET_INSERT_COLUMNS.map((column) => column.name)).toEqual([
      'actor_user_id',
      'actor_email',
      'actor_api_key_id',
      'actor_api_key_prefix',
      'request_id',
      'run_id',
    ]);
  });
});
