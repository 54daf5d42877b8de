import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { OutboxSignal } from '../../database/outbox/outbox-signal.js';
import {
  WebhooksRepository,
  type AttemptOutcome,
  type ClaimedDelivery,
} from '../../database/repositories/webhooks.repository.js';
import { DeliveryMetrics } from './delivery-metrics.js';
import { messageSigner, type MessageSigner } from './message-signature.js';
import { WebhookSender, type SendResult } from './webhook-sender.js';
import { RefusedTargetError, WebhookTargets, type CheckedTarget } from './webhook-targets.js';

/** The longest wait between two retries. */
const MAX_RETRY_DELAY_MS = 3_600_000;
/** A webhook's deliveries read at once (then sent in order, one at a time). */
const CLAIM_SIZE = 256;
/**
 * A webhook is held for this many attempts' timeouts at a time: a process that dies holding it
 * delays its deliveries that long. A chain stops before its hold ends, and lets the rest go.
 */
const HOLD_ATTEMPTS = 12;
/** Batches a webhook's sender claims one after another before other webhooks get a turn. */
const BATCHES_PER_TURN = 16;
/** Successes are recorded together: this many at most, or once the first is this old. */
const RECORD_EVERY = 128;
const RECORD_AFTER_MS = 500;

/** A chain's successes not recorded yet, by the answer's status. */
interface Successes {
  byStatus: Map<number, string[]>;
  count: number;
  /** When the first of them was sent, and the last (ms since the epoch). */
  since: number;
  at: number;
}

const newSuccesses = (): Successes => ({ byStatus: new Map(), count: 0, since: 0, at: 0 });

/** The webhook a chain sends to, and until when this process holds it (ms since the epoch). */
interface Hold {
  webhookId: string;
  until: number;
}

/** The delay before attempt `attempts + 1`: the first one's, doubled at each. */
export function retryDelayMs(firstRetryMs: number, attempts: number): number {
  return Math.min(firstRetryMs * 2 ** Math.min(attempts - 1, 30), MAX_RETRY_DELAY_MS);
}

/**
 * Sends the outbox's deliveries in the background: takes the webhooks with deliveries due
 * (each held by one process at a time, which alone sends its deliveries), sends each webhook's
 * in the events' order, one at a time, several webhooks at once (at most WEBHOOK_CONCURRENCY in
 * flight), and records how each attempt went (successes a batch at a time, while the next
 * messages go: a process that dies before recording them sends them again, as at least once
 * allows). A webhook's next batch is read while its last one is sent, and a slow receiver
 * holds back only its own. It looks at the outbox when a write of this process commits events,
 * and every WEBHOOK_POLL_MS for the rest (other processes' events, retries due, webhooks a dead
 * process held).
 */
@Injectable()
export class DeliveryDispatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  private readonly sender: WebhookSender;
  private stopping = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private poked = false;
  private unlisten: (() => void) | null = null;
  /** The webhooks this process is sending to, each by one chain. */
  private readonly chains = new Map<string, Promise<void>>();
  /** The webhook the last chain was started for: the next round starts after it. */
  private lastServed = '';

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly webhooks: WebhooksRepository,
    private readonly targets: WebhookTargets,
    private readonly signal: OutboxSignal,
    private readonly metrics: DeliveryMetrics,
  ) {
    const { concurrency, timeoutMs } = config.webhooks;
    this.sender = new WebhookSender(concurrency, timeoutMs, `AssetMap-Webhooks/${config.version}`);
  }

  onApplicationBootstrap(): void {
    this.unlisten = this.signal.listen(() => this.poke());
    this.loop = this.run();
  }

  /** Stops claiming; what is in flight ends; the webhooks held are let go. */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.unlisten?.();
    this.poke();
    await this.loop;
    this.sender.close();
  }

  /** Looks at the outbox now rather than at the next poll. */
  poke(): void {
    this.poked = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    const { concurrency, pollMs } = this.config.webhooks;
    while (!this.stopping) {
      this.poked = false;
      let claimed = false;
      // A webhook at a time per chain: at most `concurrency` deliveries in flight.
      if (this.chains.size < concurrency) {
        try {
          claimed = await this.round(concurrency - this.chains.size);
        } catch (error) {
          this.logger.error(
            'the outbox could not be read',
            error instanceof Error ? error.stack : String(error),
          );
        }
      }
      if (!claimed && !this.poked && !this.stopping) await this.pause(pollMs);
    }
    await Promise.all(this.chains.values());
  }

  /** Waits `ms`, or until poked (a commit of events, a chain's end). */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.wake = null;
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /**
   * Claims the due deliveries of at most `free` webhooks no chain of this process is sending
   * to, taking turns, and starts a chain for each: its deliveries in order, one at a time.
   * Whether any was claimed.
   */
  private async round(free: number): Promise<boolean> {
    const now = new Date();
    const until = now.getTime() + HOLD_ATTEMPTS * this.config.webhooks.timeoutMs;
    const claimed = await this.webhooks.claim(
      CLAIM_SIZE,
      free,
      now,
      new Date(until),
      [...this.chains.keys()],
      this.lastServed,
    );
    for (const queue of claimed) {
      const { webhookId } = queue[0];
      this.lastServed = webhookId;
      const chain = this.send(queue, { webhookId, until }).finally(() => {
        this.chains.delete(webhookId);
        this.poke();
      });
      this.chains.set(webhookId, chain);
    }
    return claimed.length > 0;
  }

  /**
   * One webhook's claimed deliveries, in order, then its next batches (at most
   * BATCHES_PER_TURN, then other webhooks get their turn), each read while the one before is
   * sent; then the webhook is let go. Those left when the process stops, or when another
   * attempt could outlast the hold, stay pending.
   */
  private async send(first: ClaimedDelivery[], hold: Hold): Promise<void> {
    let queue = first;
    try {
      for (let turn = 1; ; turn++) {
        const next = turn < BATCHES_PER_TURN ? this.claimNext(hold, queue[queue.length - 1]) : null;
        const whole = await this.sendBatch(queue, hold);
        const following = await next;
        if (!whole || this.stopping || !following?.length) return;
        queue = following;
      }
    } finally {
      await this.webhooks
        .release(hold.webhookId, new Date(hold.until))
        .catch((error: unknown) =>
          this.logger.error(
            'a webhook could not be let go',
            error instanceof Error ? error.stack : String(error),
          ),
        );
    }
  }

  /**
   * The webhook's next batch after `last`, its hold moved on; null when it is held no more, or
   * the outbox could not be read. Read at the next turn of the event loop: once the message
   * sent meanwhile is on its way.
   */
  private async claimNext(hold: Hold, last: ClaimedDelivery): Promise<ClaimedDelivery[] | null> {
    await nextTurn();
    const now = new Date();
    const until = now.getTime() + HOLD_ATTEMPTS * this.config.webhooks.timeoutMs;
    try {
      const queue = await this.webhooks.claimAfter(
        hold.webhookId,
        last.id,
        CLAIM_SIZE,
        now,
        new Date(hold.until),
        new Date(until),
      );
      if (queue !== null) hold.until = until;
      return queue;
    } catch (error) {
      this.logger.error(
        'the outbox could not be read',
        error instanceof Error ? error.stack : String(error),
      );
      return null;
    }
  }

  /**
   * A batch's deliveries, in order, until the process stops or another attempt could outlast
   * the hold. Whether all were sent. Its successes are recorded while the next messages are
   * on their way, one recording after the other; all of them before it ends.
   */
  private async sendBatch(queue: ClaimedDelivery[], hold: Hold): Promise<boolean> {
    const { timeoutMs } = this.config.webhooks;
    // One webhook's: its URL read and its key decoded once for the batch.
    const target = this.targets.forDeliveries(queue[0].url);
    const sign = messageSigner(queue[0].secret);
    let successes = newSuccesses();
    let recording: Promise<void> = Promise.resolve();
    // At the next turn of the event loop, once the next message is on its way.
    const recordKept = () => {
      const kept = successes;
      successes = newSuccesses();
      recording = recording.then(() => nextTurn()).then(() => this.record(kept));
    };
    // Whether the webhook was failing when claimed, until an answer clears that.
    let failing = queue[0].webhookFailing;
    let whole = true;
    for (const delivery of queue) {
      if (this.stopping || Date.now() + timeoutMs > hold.until) {
        whole = false;
        break;
      }
      try {
        const ok = await this.deliver(delivery, successes, target, sign);
        if (ok && failing) {
          failing = false;
          await this.webhooks.succeeded(delivery.webhookId);
        }
      } catch (error) {
        this.lost(delivery.id, error);
      }
      const { count, since } = successes;
      if (count >= RECORD_EVERY || (count > 0 && Date.now() - since >= RECORD_AFTER_MS)) {
        recordKept();
      }
    }
    recordKept();
    await recording;
    return whole;
  }

  /** Records the successes kept; never throws (those not recorded are sent again). */
  private async record(successes: Successes): Promise<void> {
    if (successes.count === 0) return;
    const at = new Date(successes.at);
    for (const [status, ids] of successes.byStatus) {
      await this.webhooks
        .delivered(ids, at, status)
        .then(() => this.metrics.count('delivered', ids.length))
        .catch((error: unknown) => this.lost(ids.join(', '), error));
    }
  }

  /**
   * One attempt of a delivery. A success is kept in `successes`, to be recorded with others;
   * a failure is recorded at once, with its retry. Whether it was a success.
   */
  private async deliver(
    delivery: ClaimedDelivery,
    successes: Successes,
    target: () => Promise<CheckedTarget>,
    sign: MessageSigner,
  ): Promise<boolean> {
    const at = Date.now();
    const attempts = delivery.attempts + 1;
    const result = await this.attempt(delivery, target, sign);
    if (result.status !== null && result.status >= 200 && result.status < 300) {
      const ids = successes.byStatus.get(result.status);
      if (ids) ids.push(delivery.id);
      else successes.byStatus.set(result.status, [delivery.id]);
      if (successes.count++ === 0) successes.since = at;
      successes.at = at;
      return true;
    }
    const { firstRetryMs, retryForSeconds, disableAfterSeconds } = this.config.webhooks;
    const next = new Date(at + retryDelayMs(firstRetryMs, attempts));
    const over = next.getTime() > delivery.createdAt.getTime() + retryForSeconds * 1000;
    const outcome: AttemptOutcome = {
      at: new Date(at),
      responseStatus: result.status,
      error: result.error ?? `answered ${result.status}`,
      status: over ? 'failed' : 'pending',
      nextAttemptAt: over ? null : next,
    };
    await this.webhooks.attempted(delivery.id, attempts, outcome);
    this.metrics.count(over ? 'failed' : 'retried');
    const reason = `disabled after failing for ${disableAfterSeconds} seconds without a success`;
    const disableBefore = new Date(at - disableAfterSeconds * 1000);
    if (await this.webhooks.failed(delivery.webhookId, new Date(at), disableBefore, reason)) {
      this.logger.warn(`webhook ${delivery.webhookId} ${reason}`);
    }
    return false;
  }

  /** An attempt whose end could not be recorded: it stays pending, and is sent again. */
  private lost(ids: string, error: unknown): void {
    this.logger.error(
      `delivery ${ids}: its attempt could not be recorded`,
      error instanceof Error ? error.stack : String(error),
    );
  }

  /** One attempt: the URL checked again, the message signed now, sent. */
  private async attempt(
    delivery: ClaimedDelivery,
    target: () => Promise<CheckedTarget>,
    sign: MessageSigner,
  ): Promise<SendResult> {
    try {
      const checked = await target();
      const timestamp = Math.floor(Date.now() / 1000);
      return await this.sender.send(checked, {
        body: delivery.body,
        headers: {
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': sign(delivery.eventId, timestamp, delivery.body),
        },
      });
    } catch (error) {
      if (error instanceof RefusedTargetError) return { status: null, error: error.message };
      throw error;
    }
  }
}
