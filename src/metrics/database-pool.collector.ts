import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { Dialect } from '../database/dialect/dialect.js';
import { MetricsService } from './metrics.service.js';

/**
 * The database connections, read when scraped. On PostgreSQL, from the pg pool TypeORM's driver
 * holds (its public `master`, gone once the database is closed): open connections, idle ones,
 * and requests waiting for one. SQLite has one connection, always open, and no pool or queue.
 */
@Injectable()
export class DatabasePoolCollector {
  constructor(dialect: Dialect, metrics: MetricsService) {
    const registers = [metrics.registry];
    // A database without a pool (SQLite) has its one connection, always open.
    const pooled = dialect.poolStats() !== null;
    const pool = () => dialect.poolStats();
    new Gauge({
      name: 'assetmap_db_pool_connections',
      help: 'Open database connections (SQLite: its one connection)',
      registers,
      collect() {
        this.set(pool()?.total ?? 1);
      },
    });
    if (!pooled) return;
    new Gauge({
      name: 'assetmap_db_pool_idle_connections',
      help: 'Open database connections not lent to a query (PostgreSQL only)',
      registers,
      collect() {
        this.set(pool()?.idle ?? 0);
      },
    });
    new Gauge({
      name: 'assetmap_db_pool_waiting_requests',
      help: 'Requests for a database connection waiting because every one is lent (PostgreSQL only)',
      registers,
      collect() {
        this.set(pool()?.waiting ?? 0);
      },
    });
  }
}
