import { AssetAlias } from './entities/asset-alias.entity.js';
import { AssetIdentifier } from './entities/asset-identifier.entity.js';
import { AssetSource } from './entities/asset-source.entity.js';
import { Asset } from './entities/asset.entity.js';
import { Service } from './entities/service.entity.js';
import { FindingPeriod } from './entities/finding-period.entity.js';
import { FindingSource } from './entities/finding-source.entity.js';
import { Finding } from './entities/finding.entity.js';
import { ApiKey } from './entities/api-key.entity.js';
import { User } from './entities/user.entity.js';
import { ChangeSet } from './entities/change-set.entity.js';
import { Change } from './entities/change.entity.js';
import { Diagram } from './entities/diagram.entity.js';
import { Relation } from './entities/relation.entity.js';
import { IdempotencyKey } from './entities/idempotency-key.entity.js';
import { IngestionRun } from './entities/ingestion-run.entity.js';
import { EventMark } from './entities/event-mark.entity.js';
import { Feed } from './entities/feed.entity.js';
import { WebhookDelivery } from './entities/webhook-delivery.entity.js';
import { WebhookEvent } from './entities/webhook-event.entity.js';
import { Webhook } from './entities/webhook.entity.js';

/** Every entity of the service; features share them through TypeORM. */
export const ENTITIES = [
  User,
  ApiKey,
  Asset,
  AssetSource,
  AssetIdentifier,
  AssetAlias,
  Finding,
  FindingSource,
  FindingPeriod,
  Service,
  Relation,
  Diagram,
  IngestionRun,
  IdempotencyKey,
  ChangeSet,
  Change,
  Webhook,
  WebhookEvent,
  WebhookDelivery,
  Feed,
  EventMark,
];
