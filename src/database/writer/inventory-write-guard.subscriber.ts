import type { BeforeQueryEvent, EntitySubscriberInterface } from 'typeorm';

/** The inventory's tables: every write to them goes through InventoryWriter. */
const INVENTORY_TABLES = [
  'assets',
  'services',
  'findings',
  'finding_sources',
  'finding_periods',
  'asset_sources',
  'asset_identifiers',
  'asset_aliases',
  'relations',
  'diagrams',
] as const;

// A statement that writes one of them, as TypeORM writes it (quoted names) or as written out.
const WRITES_INVENTORY = new RegExp(
  `^\\s*(?:INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+"?(${INVENTORY_TABLES.join('|')})"?[\\s(]`,
  'i',
);

/** A write to the inventory that did not go through InventoryWriter: a defect of the service. */
export class WriteOutsideWriterError extends Error {
  constructor(table: string) {
    super(`a write to ${table} did not go through InventoryWriter`);
  }
}

/**
 * Refuses every statement that writes the inventory outside one of InventoryWriter's units of
 * work (`inUnit`), before it runs: a route that wrote around the writer would lose its history
 * and, later, its events. The e2e suites run every route with it.
 */
export class InventoryWriteGuard implements EntitySubscriberInterface {
  constructor(private readonly inUnit: () => boolean) {}

  beforeQuery(event: BeforeQueryEvent): void {
    const written = WRITES_INVENTORY.exec(event.query);
    if (written !== null && !this.inUnit()) throw new WriteOutsideWriterError(written[1]);
  }
}
