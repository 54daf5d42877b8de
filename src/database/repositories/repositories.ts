import type { Type } from '@nestjs/common';
import { ChangesRepository } from './changes.repository.js';
import { DatabaseRepository } from './database.repository.js';
import { IdempotencyKeysRepository } from './idempotency-keys.repository.js';
import { RunsRepository } from './runs.repository.js';

/**
 * Every repository of the data layer: one per aggregate, owning every query over its tables.
 * DatabaseModule provides and exports them to every feature.
 */
export const REPOSITORIES: Type[] = [
  ChangesRepository,
  DatabaseRepository,
  IdempotencyKeysRepository,
  RunsRepository,
];
