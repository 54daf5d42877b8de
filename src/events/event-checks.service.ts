import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { OutboxSignal } from '../database/outbox/outbox-signal.js';
import { subscribedTo, type OutboxEvent } from '../database/outbox/outbox-event.js';
import { FeedsRepository } from '../database/repositories/feeds.repository.js';
import { FindingOverdueReads } from '../database/repositories/findings/finding-overdue-reads.js';
import { WebhooksRepository } from '../database/repositories/webhooks.repository.js';
import type { DueSeverity } from '../common/field-rules/finding-values.js';
import { chunks, idsPerStatement, type IngestSql } from '../database/ingest-sql.js';
import { FindingDueDates } from '../findings/finding-due-dates.js';
import { FindingEvents, type FindingEventEntry } from '../findings/finding-events.js';
import { isLate, toFeedResponse } from './dto/feed-response.dto.js';

/** How long deliveries are kept once delivered or failed. */
export const DELIVERIES_KEPT_DAYS = 30;

/**
 * The events no write causes, found by a check every EVENTS_CHECK_S: a feed that became late
 * (`feed.late`, once each time; the mark and its event land together, so that with several
 * replicas one sends it), and the findings whose due date passed since the last check
 * (`finding.overdue`, read through the due dates' index: only the stretch since that check), or
 * whose acceptance ended past their due date (through the acceptances' index). A check's first
 * stretch starts at its first run: what was overdue before is not told.
 */
@Injectable()
export class EventChecks implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Events');
  private timer: NodeJS.Timeout | null = null;
  /** When old deliveries were last deleted (ms since the epoch). */
  private deletedAt = 0;
  private running: Promise<void> | null = null;

  private readonly due: FindingDueDates;
  private readonly findingEvents: FindingEvents;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly feeds: FeedsRepository,
    private readonly webhooks: WebhooksRepository,
    private readonly signal: OutboxSignal,
  ) {
    this.due = new FindingDueDates(config.findingSlaDays);
    this.findingEvents = new FindingEvents(this.due);
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.check().finally(() => {
        this.running = null;
      });
    }, this.config.webhooks.checkEverySeconds * 1000);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One check: the feeds with an expectation, the due dates passed, old deliveries. */
  async check(): Promise<void> {
    try {
      await this.checkFeeds();
      await this.checkOverdue();
      await this.deleteOld();
    } catch (error) {
      this.logger.error(
        'the events check failed',
        error instanceof Error ? error.stack : String(error),
      );
    }
  }

  /** Once an hour at most: deliveries over for DELIVERIES_KEPT_DAYS go, with their events. */
  private async deleteOld(): Promise<void> {
    const now = Date.now();
    if (now - this.deletedAt < 3_600_000) return;
    this.deletedAt = now;
    await this.webhooks.deleteOverBefore(new Date(now - DELIVERIES_KEPT_DAYS * 86_400_000));
  }

  /** For each severity, the findings that became overdue since the last check (any replica's). */
  private async checkOverdue(): Promise<void> {
    const now = new Date();
    let sent = 0;
    const before = this.due.overdueBefore(now);
    for (const [severity, to] of Object.entries(before) as [DueSeverity, Date][]) {
      sent += await this.webhooks.advanceMark(
        `finding.overdue:${severity}`,
        to,
        async (sql, from, subscriptions) => {
          if (!subscribedTo(subscriptions, 'finding.overdue')) return [];
          const reads = new FindingOverdueReads(sql, this.due.days);
          const ids = await reads.crossed(severity, sql.timestamp(from), sql.timestamp(to));
          return this.overdueEvents(sql, ids, now);
        },
      );
    }
    // Acceptances that ended past their finding's due date: overdue from then on.
    sent += await this.webhooks.advanceMark(
      'finding.overdue:acceptance',
      now,
      async (sql, from, subscriptions) => {
        if (!subscribedTo(subscriptions, 'finding.overdue')) return [];
        const reads = new FindingOverdueReads(sql, this.due.days);
        const ids = await reads.acceptanceEnded(sql.timestamp(from), sql.timestamp(now));
        return this.overdueEvents(sql, ids, now);
      },
    );
    if (sent > 0) this.signal.notify();
  }

  private async overdueEvents(sql: IngestSql, ids: string[], now: Date): Promise<OutboxEvent[]> {
    const events: OutboxEvent[] = [];
    for (const part of chunks(ids, idsPerStatement(sql))) {
      const entries = part.map((id): FindingEventEntry => [id, 'finding.overdue']);
      events.push(...(await this.findingEvents.read(sql, entries, now)));
    }
    return events;
  }

  private async checkFeeds(): Promise<void> {
    const now = new Date();
    let sent = false;
    // Each read by its name: the whole list would count every feed's assets.
    for (const name of await this.feeds.expected()) {
      const [feed] = await this.feeds.list(name);
      if (feed === undefined || feed.expectedEverySeconds === null) continue;
      const late = isLate(feed, now);
      if (late && feed.lateSince === null) {
        const data = toFeedResponse(feed, now);
        const event = {
          type: 'feed.late' as const,
          data,
          sources: [feed.name],
          site: null,
          score: null,
        };
        sent = (await this.feeds.markLate(feed.name, now, event)) || sent;
      } else if (!late && feed.lateSince !== null) {
        await this.feeds.onTime(feed.name);
      }
    }
    if (sent) this.signal.notify();
  }
}
