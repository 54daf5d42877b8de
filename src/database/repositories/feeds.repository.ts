import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppDataSource } from '../app-data-source.js';
import type { RunStatus } from '../entities/ingestion-run.entity.js';
import type { OutboxEvent } from '../outbox/outbox-event.js';
import { runNamed } from '../sql-reads.js';
import { isoTimestampOrNull } from '../timestamps.js';
import { OutboxWrites } from './outbox/outbox-writes.js';

/** A feed as its runs, its assets and its expectation say. */
export interface FeedState {
  name: string;
  assets: number;
  lastRunAt: string | null;
  lastSucceededAt: string | null;
  lastStatus: RunStatus | null;
  expectedEverySeconds: number | null;
  /** When the expectation was set (ISO); null without one. */
  expectedSince: string | null;
  /** Since when its lateness was told (ISO); null while on time. */
  lateSince: string | null;
}

interface RunFacts {
  name: string;
  last_run_at: Date | string | null;
  last_succeeded_at: Date | string | null;
}

interface FeedRow {
  name: string;
  expected_every_seconds: number | string | null;
  expected_since: Date | string | null;
  late_since: Date | string | null;
}

// A run's facts of a feed: its last run, its last real success, its last run's status.
const RUN_FACTS = `SELECT source AS name, MAX(started_at) AS last_run_at,
  MAX(CASE WHEN status = 'succeeded' AND dry_run = :no THEN finished_at END) AS last_succeeded_at
  FROM ingestion_runs WHERE source IS NOT NULL`;

/**
 * The feeds: every source a run named, or one given an expectation, with its runs' facts (read
 * from ingestion_runs, by its index on source) and its assets' count (asset_sources' index).
 */
@Injectable()
export class FeedsRepository {
  constructor(@InjectDataSource() private readonly dataSource: AppDataSource) {}

  /** Every feed, by name; or the one named `only`. */
  async list(only?: string): Promise<FeedState[]> {
    const manager = this.dataSource.manager;
    const one = only !== undefined;
    const filter = one ? ' AND source = :only' : '';
    const facts = await runNamed<RunFacts>(manager, `${RUN_FACTS}${filter} GROUP BY source`, {
      no: 0,
      only,
    });
    const statuses = await runNamed<{ name: string; status: RunStatus }>(
      manager,
      `SELECT r.source AS name, r.status FROM ingestion_runs r WHERE r.source IS NOT NULL${
        one ? ' AND r.source = :only' : ''
      } AND r.id = (SELECT l.id FROM ingestion_runs l WHERE l.source = r.source ORDER BY l.started_at DESC, l.id DESC LIMIT 1)`,
      { only },
    );
    const counts = await runNamed<{ name: string; assets: number | string }>(
      manager,
      `SELECT source AS name, COUNT(*) AS assets FROM asset_sources${
        one ? ' WHERE source = :only' : ''
      } GROUP BY source`,
      { only },
    );
    const settings = await runNamed<FeedRow>(
      manager,
      `SELECT name, expected_every_seconds, expected_since, late_since FROM feeds${
        one ? ' WHERE name = :only' : ''
      }`,
      { only },
    );
    const names = new Set([...facts.map((row) => row.name), ...settings.map((row) => row.name)]);
    const factsOf = new Map(facts.map((row) => [row.name, row]));
    const statusOf = new Map(statuses.map((row) => [row.name, row.status]));
    const countOf = new Map(counts.map((row) => [row.name, Number(row.assets)]));
    const settingsOf = new Map(settings.map((row) => [row.name, row]));
    return [...names].sort().map((name) => {
      const fact = factsOf.get(name);
      const setting = settingsOf.get(name);
      const every = setting?.expected_every_seconds;
      return {
        name,
        assets: countOf.get(name) ?? 0,
        lastRunAt: isoTimestampOrNull(fact?.last_run_at ?? null),
        lastSucceededAt: isoTimestampOrNull(fact?.last_succeeded_at ?? null),
        lastStatus: statusOf.get(name) ?? null,
        expectedEverySeconds: every === null || every === undefined ? null : Number(every),
        expectedSince: isoTimestampOrNull(setting?.expected_since ?? null),
        lateSince: isoTimestampOrNull(setting?.late_since ?? null),
      };
    });
  }

  /** The names of the feeds with an expectation. */
  async expected(): Promise<string[]> {
    const rows = await runNamed<{ name: string }>(
      this.dataSource.manager,
      'SELECT name FROM feeds WHERE expected_every_seconds IS NOT NULL ORDER BY name',
      {},
    );
    return rows.map((row) => row.name);
  }

  /** Sets (or, null, clears) how often the feed should succeed; its lateness is told anew. */
  async expect(name: string, everySeconds: number | null, now: Date): Promise<void> {
    await this.dataSource.transact((manager) =>
      runNamed(
        manager,
        `INSERT INTO feeds (name, expected_every_seconds, expected_since, late_since)
         VALUES (:name, :every, :since, NULL) ON CONFLICT (name) DO UPDATE SET
         expected_every_seconds = excluded.expected_every_seconds,
         expected_since = excluded.expected_since, late_since = NULL`,
        { name, every: everySeconds, since: everySeconds === null ? null : now },
      ),
    );
  }

  /**
   * The feed is late: its `feed.late` (`event`) is written with the mark, once; false when
   * another process (or an earlier check) marked it already.
   */
  async markLate(name: string, now: Date, event: OutboxEvent): Promise<boolean> {
    return this.dataSource.transact(async (manager) => {
      const sql = this.dataSource.dialect.unitSql(manager);
      const marked = await sql.run(
        'UPDATE feeds SET late_since = ? WHERE name = ? AND late_since IS NULL',
        [sql.timestamp(now), name],
      );
      if (marked === 0) return false;
      const outbox = new OutboxWrites(sql);
      await outbox.write(await outbox.subscriptions(), [event], now);
      await sql.settle();
      return true;
    });
  }

  /** The feed is on time again: its next lateness is told. */
  async onTime(name: string): Promise<void> {
    await this.dataSource.transact((manager) =>
      runNamed(manager, 'UPDATE feeds SET late_since = NULL WHERE name = :name', { name }),
    );
  }
}
