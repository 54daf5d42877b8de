import type { User } from '../entities/user.entity.js';
import type { InsertColumn } from '../ingest-sql.js';
import { integer, text, timestamp } from './column-table.js';

/**
 * The users table: the column of each property of the entity, in the table's order. The
 * compiler holds it to the entity; the session check's columns are derived from it.
 */
export const USER_COLUMNS = {
  id: text('id'),
  email: text('email'),
  name: text('name'),
  role: text('role'),
  passwordHash: text('password_hash'),
  tokenVersion: integer('token_version'),
  createdAt: timestamp('created_at'),
  updatedAt: timestamp('updated_at'),
  kind: text('kind'),
  oidcSubject: text('oidc_subject'),
} as const satisfies { [P in keyof User]-?: InsertColumn };

/** What authenticating a session token reads of its user, in the table's order. */
export const SESSION_USER_PROPERTIES = [
  'id',
  'email',
  'name',
  'role',
  'tokenVersion',
] as const satisfies readonly (keyof User)[];
