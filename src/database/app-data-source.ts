import { DataSource } from 'typeorm';

const NAIVE_TIMESTAMP_TYPES = new Set<unknown>([Date, 'timestamp', 'timestamp without time zone']);

/**
 * The service's DataSource. On PostgreSQL every timestamp column is `timestamptz`: entities are
 * shared by both databases and declare their dates portably, which TypeORM would map to a
 * timestamp without time zone there, so that values would depend on the process's time zone.
 */
export class AppDataSource extends DataSource {
  protected override async buildMetadatas(): Promise<void> {
    await super.buildMetadatas();
    if (this.options.type !== 'postgres') return;
    for (const entity of this.entityMetadatas) {
      for (const column of entity.columns) {
        if (NAIVE_TIMESTAMP_TYPES.has(column.type)) column.type = 'timestamptz';
      }
    }
  }
}
