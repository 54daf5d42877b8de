import type { Type } from '@nestjs/common';
import { ApiKeysRepository } from './api-keys.repository.js';
import { AssetsRepository } from './assets.repository.js';
import { ChangesRepository } from './changes.repository.js';
import { DatabaseRepository } from './database.repository.js';
import { DiagramsRepository } from './diagrams.repository.js';
import { FindingsRepository } from './findings.repository.js';
import { GraphRepository } from './graph.repository.js';
import { IdempotencyKeysRepository } from './idempotency-keys.repository.js';
import { RelationsRepository } from './relations.repository.js';
import { RunsRepository } from './runs.repository.js';
import { UsersRepository } from './users.repository.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { FeedsRepository } from './feeds.repository.js';

/**
 * Every repository of the data layer: one per aggregate, owning every query over its tables.
 * DatabaseModule provides and exports them to every feature.
 */
export const REPOSITORIES: Type[] = [
  AssetsRepository,
  FindingsRepository,
  RelationsRepository,
  GraphRepository,
  DiagramsRepository,
  UsersRepository,
  ApiKeysRepository,
  ChangesRepository,
  RunsRepository,
  IdempotencyKeysRepository,
  DatabaseRepository,
  WebhooksRepository,
  FeedsRepository,
];
