import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { Gauge } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { MetricsService } from './metrics.service.js';

/**
 * The database connections, read when scraped. On PostgreSQL, from the pg pool TypeORM's driver
 * holds (its public `master`, gone once the database is closed): open connections, idle ones,
 * and requests waiting for one. SQLite has one connection, always open, and no pool or queue.
 */
@Injectable()
export class DatabasePoolCollector {
  constructor(@InjectDataSource() dataSource: DataSource, metrics: MetricsService) {
    const registers = [metrics.registry];
    const postgres = dataSource.options.type === 'postgres';
    const pool = (): Pool | undefined => (dataSource.driver as PostgresDriver).master as Pool;
    new Gauge({
      name: 'assetmap_db_pool_connections',
      help: 'Open database connections (SQLite: its one connection)',
      registers,
      collect() {
        this.set(postgres ? (pool()?.totalCount ?? 0) : 1);
      },
    });
    if (!postgres) return;
    new Gauge({
      name: 'assetmap_db_pool_idle_connections',
      help: 'Open database connections not lent to a query (PostgreSQL only)',
      registers,
      collect() {
        this.set(pool()?.idleCount ?? 0);
      },
    });
    new Gauge({
      name: 'assetmap_db_pool_waiting_requests',
      help: 'Requests for a database connection waiting because every one is lent (PostgreSQL only)',
      registers,
      collect() {
        this.set(pool()?.waitingCount ?? 0);
      },
    });
  }
}
