import { AssetSource } from '../assets/asset-source.entity.js';
import { Asset } from '../assets/asset.entity.js';
import { Service } from '../assets/service.entity.js';
import { Vulnerability } from '../assets/vulnerability.entity.js';
import { ApiKey } from '../auth/api-key.entity.js';
import { User } from '../auth/user.entity.js';
import { ChangeSet } from '../changes/change-set.entity.js';
import { Change } from '../changes/change.entity.js';
import { Diagram } from '../diagrams/diagram.entity.js';
import { Relation } from '../relations/relation.entity.js';
import { IdempotencyKey } from '../runs/idempotency-key.entity.js';
import { IngestionRun } from '../runs/ingestion-run.entity.js';

/** Every entity of the service; features share them through TypeORM. */
export const ENTITIES = [
  User,
  ApiKey,
  Asset,
  AssetSource,
  Vulnerability,
  Service,
  Relation,
  Diagram,
  IngestionRun,
  IdempotencyKey,
  ChangeSet,
  Change,
];
