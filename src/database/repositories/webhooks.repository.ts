import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { timeOrderedId } from '../../common/ids/time-ordered-id.js';
import { AppDataSource } from '../app-data-source.js';
import { WebhookDelivery } from '../entities/webhook-delivery.entity.js';
import { Webhook } from '../entities/webhook.entity.js';
import { placeholders, type IngestSql } from '../ingest-sql.js';
import { isoTimestamp } from '../timestamps.js';
import type { OutboxEvent, Subscription } from '../outbox/outbox-event.js';
import { OutboxWrites } from './outbox/outbox-writes.js';

/** A delivery claimed by a sender, with what it sends and where. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  attempts: number;
  createdAt: Date;
  body: string;
  url: string;
  secret: string;
  /** Whether its webhook was failing when it was claimed. */
  webhookFailing: boolean;
}

interface ClaimedRow {
  id: string;
  webhook_id: string;
  event_id: string;
  attempts: number | string;
  created_at: Date | string;
  body: string;
  url: string;
  secret: string;
  failing_since: Date | string | null;
}

/** How an attempt ended, as its delivery records it. */
export interface AttemptOutcome {
  at: Date;
  responseStatus: number | null;
  error: string | null;
  /** delivered, failed for good, or pending again at `nextAttemptAt`. */
  status: WebhookDelivery['status'];
  nextAttemptAt: Date | null;
}

/** The outbox as the senders and the metrics see it. */
export interface QueueState {
  pending: number;
  /** The oldest pending delivery's creation; null when none is. */
  oldestPendingAt: Date | null;
}

const asDate = (value: Date | string): Date => new Date(isoTimestamp(value));

/** The millisecond a UUIDv7 was made in. */
function timeOfId(id: string): Date {
  return new Date(parseInt(`${id.slice(0, 8)}${id.slice(9, 13)}`, 16));
}

/** The smallest UUIDv7 of `time`'s millisecond: every id made before it is smaller. */
function firstIdAt(time: Date): string {
  const hex = time.getTime().toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
}

/**
 * Webhooks, the outbox's events and their deliveries. None of it is the inventory: written on
 * the data source's connection, outside InventoryWriter, but for the events a write causes,
 * which land in its transaction (OutboxWrites, through the writer).
 */
@Injectable()
export class WebhooksRepository {
  private readonly webhooks: Repository<Webhook>;
  private readonly deliveries: Repository<WebhookDelivery>;

  constructor(@InjectDataSource() private readonly dataSource: AppDataSource) {
    this.webhooks = dataSource.getRepository(Webhook);
    this.deliveries = dataSource.getRepository(WebhookDelivery);
  }

  list(): Promise<Webhook[]> {
    return this.webhooks.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  find(id: string): Promise<Webhook | null> {
    return this.webhooks.findOneBy({ id });
  }

  async insert(webhook: Webhook): Promise<void> {
    await this.webhooks.insert(webhook);
  }

  async update(id: string, changes: Partial<Omit<Webhook, 'id'>>): Promise<void> {
    await this.webhooks.update({ id }, changes);
  }

  /** Deletes it, its deliveries with it; whether there was one. */
  async delete(id: string): Promise<boolean> {
    return this.transaction(async (sql) => {
      await sql.run('DELETE FROM webhook_deliveries WHERE webhook_id = ?', [id]);
      return (await sql.run('DELETE FROM webhooks WHERE id = ?', [id])) > 0;
    });
  }

  /** Events caused by no write of the inventory (a run's end, a late feed), in a transaction. */
  emit(events: OutboxEvent[], now: Date): Promise<number> {
    return this.transaction(async (sql) => {
      const outbox = new OutboxWrites(sql);
      return outbox.write(await outbox.subscriptions(), events, now);
    });
  }

  /** A ping queued to one webhook. */
  ping(webhookId: string, now: Date): Promise<void> {
    return this.transaction((sql) => new OutboxWrites(sql).ping(webhookId, now));
  }

  /** A webhook's deliveries, newest first, and how many it has. */
  async deliveriesOf(
    webhookId: string,
    paging: { limit: number; offset: number },
  ): Promise<{ deliveries: WebhookDelivery[]; total: number }> {
    const [deliveries, total] = await this.deliveries.findAndCount({
      where: { webhookId },
      order: { id: 'DESC' },
      take: paging.limit,
      skip: paging.offset,
    });
    return { deliveries, total };
  }

  /**
   * The event of a webhook's delivery queued again to it, as a new delivery (same event, same
   * `webhook-id`); false when the webhook has no such delivery.
   */
  async redeliver(webhookId: string, deliveryId: string, now: Date): Promise<boolean> {
    const delivery = await this.deliveries.findOneBy({ id: deliveryId, webhookId });
    if (delivery === null) return false;
    await this.deliveries.insert({
      id: timeOrderedId(),
      webhookId,
      eventId: delivery.eventId,
      type: delivery.type,
      status: 'pending',
      attempts: 0,
      createdAt: now,
      lastAttemptAt: null,
      responseStatus: null,
      lastError: null,
      nextAttemptAt: now,
    });
    return true;
  }

  /**
   * The due pending deliveries of up to `webhooks` enabled webhooks but `busy` ones, each
   * webhook's first `limit` in the events' order (one list a webhook), each webhook held by
   * this process until `until` (its `claimed_until`): its deliveries are sent by this process
   * alone, in order, until it lets the webhook go or the hold runs out. The webhooks are tried
   * from the one after `after` on, round their list, so that each gets its turn. On PostgreSQL
   * a webhook is taken by one replica (a row another is taking is skipped); one that a dead
   * process held is taken again once its hold ends.
   */
  claim(
    limit: number,
    webhooks: number,
    now: Date,
    until: Date,
    busy: readonly string[],
    after: string,
  ): Promise<ClaimedDelivery[][]> {
    return this.transaction(async (sql) => {
      const at = sql.timestamp(now);
      // Only those with a delivery due: a webhook with nothing to send is not written to.
      const ready = await sql.all<{ id: string }>(
        `SELECT w.id FROM webhooks w
         WHERE w.enabled = ? AND (w.claimed_until IS NULL OR w.claimed_until < ?)
           AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = w.id
             AND d.status BETWEEN 'pending' AND 'pending' AND d.next_attempt_at <= ?)
         ORDER BY w.id`,
        [1, at, at],
      );
      const free = ready.map((row) => row.id).filter((id) => !busy.includes(id));
      const next = free.findIndex((id) => id > after);
      const turn = next <= 0 ? free : [...free.slice(next), ...free.slice(0, next)];
      const claimed: ClaimedDelivery[][] = [];
      for (const webhookId of turn) {
        if (claimed.length >= webhooks) break;
        const [taken] = await sql.all<{ id: string }>(
          `SELECT w.id FROM webhooks w WHERE w.id = ? AND w.enabled = ?
             AND (w.claimed_until IS NULL OR w.claimed_until < ?) ${sql.dialect.claimRows('w')}`,
          [webhookId, 1, at],
        );
        if (taken === undefined) continue;
        const deliveries = await this.dueOf(sql, webhookId, null, limit, now);
        if (deliveries.length === 0) continue;
        await sql.run('UPDATE webhooks SET claimed_until = ? WHERE id = ?', [
          sql.timestamp(until),
          webhookId,
        ]);
        claimed.push(deliveries);
      }
      return claimed;
    });
  }

  /**
   * The next due pending deliveries of a webhook this process holds (until `held`) after the
   * delivery `afterId` (the last of a batch its sender has taken), its hold moved to `until`;
   * null when it holds the webhook no more (disabled, deleted, or its hold taken over). A
   * sender going on through a backlog reads from there: the rows before it that a drain has
   * left behind (those delivered, and on PostgreSQL their old versions until a vacuum) are not
   * read again.
   */
  claimAfter(
    webhookId: string,
    afterId: string,
    limit: number,
    now: Date,
    held: Date,
    until: Date,
  ): Promise<ClaimedDelivery[] | null> {
    return this.transaction(async (sql) => {
      const kept = await sql.run(
        'UPDATE webhooks SET claimed_until = ? WHERE id = ? AND enabled = ? AND claimed_until = ?',
        [sql.timestamp(until), webhookId, 1, sql.timestamp(held)],
      );
      return kept > 0 ? this.dueOf(sql, webhookId, afterId, limit, now) : null;
    });
  }

  /** Lets a webhook this process holds (until `held`) go: another sender may take it. */
  async release(webhookId: string, held: Date): Promise<void> {
    await this.transaction((sql) =>
      sql.run('UPDATE webhooks SET claimed_until = NULL WHERE id = ? AND claimed_until = ?', [
        webhookId,
        sql.timestamp(held),
      ]),
    );
  }

  /** A webhook's first `limit` due pending deliveries (after `afterId`), in order. */
  private async dueOf(
    sql: IngestSql,
    webhookId: string,
    afterId: string | null,
    limit: number,
    now: Date,
  ): Promise<ClaimedDelivery[]> {
    const after = afterId === null ? '' : 'AND d.id > ?';
    // The pending ones only, through an index that starts with status. With `status =`,
    // PostgreSQL takes the order as `id` alone, and when its statistics are older than a
    // backlog's drain it walks the primary key through every delivered row before them (a
    // claim then reads more rows each time): the range keeps status in the order.
    const rows = await sql.all<ClaimedRow>(
      `SELECT d.id, d.webhook_id, d.event_id, d.attempts, d.created_at, e.body, w.url, w.secret,
       w.failing_since
       FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
       JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.webhook_id = ? AND d.status BETWEEN 'pending' AND 'pending' ${after}
         AND d.next_attempt_at <= ?
       ORDER BY d.status, d.id LIMIT ${Number(limit)}`,
      afterId === null ? [webhookId, sql.timestamp(now)] : [webhookId, afterId, sql.timestamp(now)],
    );
    return rows.map((row) => ({
      id: row.id,
      webhookId: row.webhook_id,
      eventId: row.event_id,
      attempts: Number(row.attempts),
      createdAt: asDate(row.created_at),
      body: row.body,
      url: row.url,
      secret: row.secret,
      webhookFailing: row.failing_since !== null,
    }));
  }

  /** Records an attempt of a delivery. */
  async attempted(id: string, attempts: number, outcome: AttemptOutcome): Promise<void> {
    await this.deliveries.update(
      { id },
      {
        attempts,
        status: outcome.status,
        lastAttemptAt: outcome.at,
        responseStatus: outcome.responseStatus,
        lastError: outcome.error,
        nextAttemptAt: outcome.nextAttemptAt,
      },
    );
  }

  /**
   * Records the attempts, made by `at`, that delivered these deliveries with `responseStatus`:
   * one statement for a batch a sender recorded together.
   */
  async delivered(ids: readonly string[], at: Date, responseStatus: number): Promise<void> {
    if (ids.length === 0) return;
    await this.transaction((sql) =>
      sql.run(
        `UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1,
         last_attempt_at = ?, response_status = ?, last_error = NULL, next_attempt_at = NULL
         WHERE id IN (${placeholders(ids)})`,
        [sql.timestamp(at), responseStatus, ...ids],
      ),
    );
  }

  /**
   * Moves the mark `name` to `to` and writes the events `found` answers for what lies between
   * the mark and `to`, in one transaction: with several replicas, one finds each stretch (the
   * mark's row is locked). A mark met for the first time is set, and nothing found before it.
   */
  async advanceMark(
    name: string,
    to: Date,
    found: (sql: IngestSql, from: Date, subscriptions: Subscription[]) => Promise<OutboxEvent[]>,
  ): Promise<number> {
    return this.transaction(async (sql) => {
      const at = sql.timestamp(to);
      const [mark] = await sql.all<{ checked_until: Date | string }>(
        `SELECT checked_until FROM event_marks WHERE name = ? ${sql.dialect.lockRows}`,
        [name],
      );
      if (mark === undefined) {
        await sql.run(
          'INSERT INTO event_marks (name, checked_until) VALUES (?, ?) ON CONFLICT (name) DO NOTHING',
          [name, at],
        );
        return 0;
      }
      const from = asDate(mark.checked_until);
      if (from >= to) return 0;
      await sql.run('UPDATE event_marks SET checked_until = ? WHERE name = ?', [at, name]);
      const outbox = new OutboxWrites(sql);
      const subscriptions = await outbox.subscriptions();
      const events = await found(sql, from, subscriptions);
      return outbox.write(subscriptions, events, new Date());
    });
  }

  /** A webhook answered: it is failing no more. */
  async succeeded(webhookId: string): Promise<void> {
    await this.transaction((sql) =>
      sql.run(
        'UPDATE webhooks SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL',
        [webhookId],
      ),
    );
  }

  /**
   * A webhook's attempt failed at `at`: it is failing since then, unless it was already; when
   * that was before `disableBefore`, it is disabled with `reason`. Whether it was disabled.
   */
  async failed(webhookId: string, at: Date, disableBefore: Date, reason: string): Promise<boolean> {
    return this.transaction(async (sql) => {
      await sql.run(
        'UPDATE webhooks SET failing_since = ? WHERE id = ? AND failing_since IS NULL',
        [sql.timestamp(at), webhookId],
      );
      const disabled = await sql.run(
        'UPDATE webhooks SET enabled = ?, disabled_reason = ?, updated_at = ? WHERE id = ? AND enabled = ? AND failing_since < ?',
        [0, reason, sql.timestamp(at), webhookId, 1, sql.timestamp(disableBefore)],
      );
      return disabled > 0;
    });
  }

  /**
   * The pending deliveries to enabled webhooks, and the oldest one's creation: the time of the
   * smallest id (a UUIDv7, made at the creation), read with the ids from the index the senders
   * claim through, without the rows.
   */
  async queue(): Promise<QueueState> {
    const row = (await this.deliveries
      .createQueryBuilder('d')
      .innerJoin(Webhook, 'w', 'w.id = d.webhook_id')
      .select('COUNT(*)', 'pending')
      .addSelect('MIN(d.id)', 'oldest')
      .where('d.status = :status', { status: 'pending' })
      .andWhere('w.enabled = :enabled', { enabled: true })
      .getRawOne<{ pending: number | string; oldest: string | null }>())!;
    return {
      pending: Number(row.pending),
      oldestPendingAt: row.oldest === null ? null : timeOfId(row.oldest),
    };
  }

  /**
   * Deliveries over (delivered or failed) made before `before` are deleted, and the events left
   * without any: read by their primary keys, UUIDv7s that order by their time.
   */
  async deleteOverBefore(before: Date): Promise<void> {
    const bound = firstIdAt(before);
    await this.transaction(async (sql) => {
      await sql.run(`DELETE FROM webhook_deliveries WHERE id < ? AND status <> 'pending'`, [bound]);
      await sql.run(
        'DELETE FROM webhook_events WHERE id < ? AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)',
        [bound],
      );
    });
  }

  /** `work` in a transaction of its own, its statements written as IngestSql's. */
  private transaction<T>(work: (sql: IngestSql) => Promise<T>): Promise<T> {
    return this.dataSource.transact(async (manager) => {
      const sql = this.dataSource.dialect.unitSql(manager);
      const result = await work(sql);
      await sql.settle();
      return result;
    });
  }
}
