import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource, type EntityTarget } from 'typeorm';
import { ENTITIES } from '../entities.js';
import { ApiKey } from '../entities/api-key.entity.js';
import { AssetSource } from '../entities/asset-source.entity.js';
import { Asset } from '../entities/asset.entity.js';
import { ChangeSet } from '../entities/change-set.entity.js';
import { Change } from '../entities/change.entity.js';
import { Diagram } from '../entities/diagram.entity.js';
import { IdempotencyKey } from '../entities/idempotency-key.entity.js';
import { IngestionRun } from '../entities/ingestion-run.entity.js';
import { Relation } from '../entities/relation.entity.js';
import { Service } from '../entities/service.entity.js';
import { User } from '../entities/user.entity.js';
import { FindingPeriod } from '../entities/finding-period.entity.js';
import { FindingSource } from '../entities/finding-source.entity.js';
import { Finding } from '../entities/finding.entity.js';
import { API_KEY_COLUMNS } from './api-keys.table.js';
import { ASSET_SOURCE_COLUMNS, ASSET_SOURCE_INSERT_COLUMNS } from './asset-sources.table.js';
import { ASSET_COLUMNS, ASSET_INSERT_COLUMNS } from './assets.table.js';
import { CHANGE_SET_COLUMNS } from './change-sets.table.js';
import { CHANGE_COLUMNS, CHANGE_INSERT_COLUMNS } from './changes.table.js';
import { columnPaths, type ColumnTable, type TableColumn } from './column-table.js';
import { DIAGRAM_COLUMNS } from './diagrams.table.js';
import { IDEMPOTENCY_KEY_COLUMNS } from './idempotency-keys.table.js';
import { RUN_COLUMNS } from './ingestion-runs.table.js';
import { RELATION_COLUMNS, RELATION_INSERT_COLUMNS } from './relations.table.js';
import { SERVICE_COLUMNS, SERVICE_INSERT_COLUMNS } from './services.table.js';
import { USER_COLUMNS } from './users.table.js';
import { FINDING_PERIOD_COLUMNS } from './finding-periods.table.js';
import { FINDING_SOURCE_COLUMNS, FINDING_SOURCE_INSERT_COLUMNS } from './finding-sources.table.js';
import { FINDING_COLUMNS } from './findings.table.js';
import { WebhookDelivery } from '../entities/webhook-delivery.entity.js';
import { WebhookEvent } from '../entities/webhook-event.entity.js';
import {
  WEBHOOK_DELIVERY_COLUMNS,
  WEBHOOK_DELIVERY_INSERT_COLUMNS,
} from './webhook-deliveries.table.js';
import { WEBHOOK_EVENT_COLUMNS, WEBHOOK_EVENT_INSERT_COLUMNS } from './webhook-events.table.js';

/** The type a statement binds for each of TypeORM's column types. */
const BOUND_AS: Record<string, TableColumn['type']> = {
  varchar: 'text',
  text: 'text',
  integer: 'integer',
  Number: 'integer',
  'double precision': 'double precision',
  date: 'date',
  boolean: 'boolean',
  Date: 'timestamptz',
  datetime: 'timestamptz',
  'simple-json': 'json',
};

interface Table {
  entity: EntityTarget<object>;
  columns: ColumnTable;
  /** What an insert of a whole row writes, where the table says. */
  insert?: TableColumn[];
}

const TABLES: [string, Table][] = [
  ['assets', { entity: Asset, columns: ASSET_COLUMNS, insert: ASSET_INSERT_COLUMNS }],
  ['services', { entity: Service, columns: SERVICE_COLUMNS, insert: SERVICE_INSERT_COLUMNS }],
  ['findings', { entity: Finding, columns: FINDING_COLUMNS }],
  [
    'finding_sources',
    {
      entity: FindingSource,
      columns: FINDING_SOURCE_COLUMNS,
      insert: FINDING_SOURCE_INSERT_COLUMNS,
    },
  ],
  ['finding_periods', { entity: FindingPeriod, columns: FINDING_PERIOD_COLUMNS }],
  [
    'asset_sources',
    { entity: AssetSource, columns: ASSET_SOURCE_COLUMNS, insert: ASSET_SOURCE_INSERT_COLUMNS },
  ],
  ['relations', { entity: Relation, columns: RELATION_COLUMNS, insert: RELATION_INSERT_COLUMNS }],
  ['diagrams', { entity: Diagram, columns: DIAGRAM_COLUMNS }],
  ['users', { entity: User, columns: USER_COLUMNS }],
  ['api_keys', { entity: ApiKey, columns: API_KEY_COLUMNS }],
  ['changes', { entity: Change, columns: CHANGE_COLUMNS, insert: CHANGE_INSERT_COLUMNS }],
  ['change_sets', { entity: ChangeSet, columns: CHANGE_SET_COLUMNS }],
  ['ingestion_runs', { entity: IngestionRun, columns: RUN_COLUMNS }],
  ['idempotency_keys', { entity: IdempotencyKey, columns: IDEMPOTENCY_KEY_COLUMNS }],
  [
    'webhook_events',
    { entity: WebhookEvent, columns: WEBHOOK_EVENT_COLUMNS, insert: WEBHOOK_EVENT_INSERT_COLUMNS },
  ],
  [
    'webhook_deliveries',
    {
      entity: WebhookDelivery,
      columns: WEBHOOK_DELIVERY_COLUMNS,
      insert: WEBHOOK_DELIVERY_INSERT_COLUMNS,
    },
  ],
];

/**
 * The compiler holds each column table to its entity's properties; this holds it to what
 * TypeORM maps them to: every column (an embedded entity's under its property), its name and
 * the type a statement binds.
 */
describe('the column tables', () => {
  const dataSource = new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    entities: ENTITIES,
  });

  beforeAll(async () => {
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
  });

  describe.each(TABLES)('of %s', (_name, { entity, columns, insert }) => {
    const mapped = () => dataSource.getMetadata(entity).columns;

    it("names each property's column as the entity maps it, with the type it binds", () => {
      // How a long column is sent (InsertColumn.long) is the table's own choice.
      const bound = columnPaths(columns).map(([path, { name, type }]) => [path, { name, type }]);
      expect(Object.fromEntries(bound)).toEqual(
        Object.fromEntries(
          mapped().map((column) => [
            column.propertyPath,
            {
              name: column.databaseName,
              type: BOUND_AS[typeof column.type === 'function' ? column.type.name : column.type],
            },
          ]),
        ),
      );
    });

    if (insert !== undefined)
      it("inserts every column once, in the entity's order", () => {
        expect(insert.map((column) => column.name)).toEqual(
          mapped().map((column) => column.databaseName),
        );
      });
  });
});
