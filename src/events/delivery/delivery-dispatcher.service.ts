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
import { signMessage } from './message-signature.js';
import { WebhookSender, type SendResult } from './webhook-sender.js';
import { RefusedTargetError, WebhookTargets } from './webhook-targets.js';

/** The longest wait between two retries. */
const MAX_RETRY_DELAY_MS = 3_600_000;
/** A webhook's deliveries claimed at once (then sent in order, one at a time). */
const CLAIM_SIZE = 256;
/**
 * A claim is held for this many attempts' timeouts: a process that dies holding it delays its
 * deliveries that long. A chain stops before its hold ends, and lets the rest go.
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
  /** When the first of them was answered, and the last (ms since the epoch). */
  since: number;
  at: number;
}

/** The delay before attempt `attempts + 1`: the first one's, doubled at each. */
export function retryDelayMs(firstRetryMs: number, attempts: number): number {
  return Math.min(firstRetryMs * 2 ** Math.min(attempts - 1, 30), MAX_RETRY_DELAY_MS);
}

/**
 * Sends the outbox's deliveries in the background: claims those due (each by one process), in
 * batches, sends each webhook's in the events' order, one at a time, several webhooks at once
 * (at most WEBHOOK_CONCURRENCY in flight), and records how each attempt went (successes a batch
 * at a time: a process that dies before recording them sends them again, as at least once
 * allows). A webhook's next batch is claimed once its last one is sent, so that a slow receiver
 * holds back only its own. It looks at the outbox
 * when a write of this process commits events, and every WEBHOOK_POLL_MS for the rest (other
 * processes' events, retries due, deliveries a dead process held).
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

  /** Stops claiming; what is in flight ends; what was claimed and not sent is let go. */
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
    const until = new Date(now.getTime() + HOLD_ATTEMPTS * this.config.webhooks.timeoutMs);
    const claimed = await this.webhooks.claim(
      CLAIM_SIZE,
      free,
      now,
      until,
      [...this.chains.keys()],
      this.lastServed,
    );
    for (const queue of claimed) {
      const { webhookId } = queue[0];
      this.lastServed = webhookId;
      const chain = this.send(queue, until.getTime()).finally(() => {
        this.chains.delete(webhookId);
        this.poke();
      });
      this.chains.set(webhookId, chain);
    }
    return claimed.length > 0;
  }

  /**
   * One webhook's claimed deliveries, in order, then its next batches (at most
   * BATCHES_PER_TURN, then other webhooks get their turn); those left when the process stops,
   * or when another attempt could outlast the claim, go back.
   */
  private async send(first: ClaimedDelivery[], until: number): Promise<void> {
    let queue = first;
    let hold = until;
    for (let turn = 1; ; turn++) {
      const whole = await this.sendBatch(queue, hold);
      if (!whole || this.stopping || turn >= BATCHES_PER_TURN) return;
      const last = queue[queue.length - 1];
      const now = new Date();
      hold = now.getTime() + HOLD_ATTEMPTS * this.config.webhooks.timeoutMs;
      try {
        queue = await this.webhooks.claimAfter(
          last.webhookId,
          last.id,
          CLAIM_SIZE,
          now,
          new Date(hold),
        );
      } catch (error) {
        this.logger.error(
          'the outbox could not be read',
          error instanceof Error ? error.stack : String(error),
        );
        return;
      }
      if (queue.length === 0) return;
    }
  }

  /**
   * A batch's deliveries, in order; those left when the process stops, or when another
   * attempt could outlast the claim (`until`, ms since the epoch), go back. Whether all were
   * sent.
   */
  private async sendBatch(queue: ClaimedDelivery[], until: number): Promise<boolean> {
    const { timeoutMs } = this.config.webhooks;
    const successes: Successes = { byStatus: new Map(), count: 0, since: 0, at: 0 };
    // Whether the webhook was failing when claimed, until an answer clears that.
    let failing = queue[0]?.webhookFailing ?? false;
    let unsent: string[] = [];
    for (const [index, delivery] of queue.entries()) {
      if (this.stopping || Date.now() + timeoutMs > until) {
        unsent = queue.slice(index).map((left) => left.id);
        break;
      }
      try {
        const ok = await this.deliver(delivery, successes);
        if (ok && failing) {
          failing = false;
          await this.webhooks.succeeded(delivery.webhookId);
        }
      } catch (error) {
        this.lost(delivery.id, error);
      }
      if (successes.count >= RECORD_EVERY || Date.now() - successes.since >= RECORD_AFTER_MS) {
        await this.record(successes);
      }
    }
    await this.record(successes);
    await this.webhooks
      .release(unsent)
      .catch((error: unknown) =>
        this.logger.error(
          'claimed deliveries could not be let go',
          error instanceof Error ? error.stack : String(error),
        ),
      );
    return unsent.length === 0;
  }

  /** Records the successes kept, and forgets them. */
  private async record(successes: Successes): Promise<void> {
    if (successes.count === 0) return;
    const at = new Date(successes.at);
    const byStatus = [...successes.byStatus];
    successes.byStatus.clear();
    successes.count = 0;
    for (const [status, ids] of byStatus) {
      await this.webhooks
        .delivered(ids, at, status)
        .catch((error: unknown) => this.lost(ids.join(', '), error));
    }
  }

  /**
   * One attempt of a delivery. A success is kept in `successes`, to be recorded with others;
   * a failure is recorded at once, with its retry. Whether it was a success.
   */
  private async deliver(delivery: ClaimedDelivery, successes: Successes): Promise<boolean> {
    const at = new Date();
    const attempts = delivery.attempts + 1;
    const result = await this.attempt(delivery);
    if (result.status !== null && result.status >= 200 && result.status < 300) {
      const ids = successes.byStatus.get(result.status);
      if (ids) ids.push(delivery.id);
      else successes.byStatus.set(result.status, [delivery.id]);
      if (successes.count++ === 0) successes.since = at.getTime();
      successes.at = at.getTime();
      this.metrics.count('delivered');
      return true;
    }
    const { firstRetryMs, retryForSeconds, disableAfterSeconds } = this.config.webhooks;
    const next = new Date(at.getTime() + retryDelayMs(firstRetryMs, attempts));
    const over = next.getTime() > delivery.createdAt.getTime() + retryForSeconds * 1000;
    const outcome: AttemptOutcome = {
      at,
      responseStatus: result.status,
      error: result.error ?? `answered ${result.status}`,
      status: over ? 'failed' : 'pending',
      nextAttemptAt: over ? null : next,
    };
    await this.webhooks.attempted(delivery.id, attempts, outcome);
    this.metrics.count(over ? 'failed' : 'retried');
    const reason = `disabled after failing for ${disableAfterSeconds} seconds without a success`;
    const disableBefore = new Date(at.getTime() - disableAfterSeconds * 1000);
    if (await this.webhooks.failed(delivery.webhookId, at, disableBefore, reason)) {
      this.logger.warn(`webhook ${delivery.webhookId} ${reason}`);
    }
    return false;
  }

  /** An attempt whose end could not be recorded: its claim runs out, and it is sent again. */
  private lost(ids: string, error: unknown): void {
    this.logger.error(
      `delivery ${ids}: its attempt could not be recorded`,
      error instanceof Error ? error.stack : String(error),
    );
  }

  /** One attempt: the URL checked again, the message signed now, sent. */
  private async attempt(delivery: ClaimedDelivery): Promise<SendResult> {
    try {
      const target = await this.targets.check(delivery.url);
      const timestamp = Math.floor(Date.now() / 1000);
      return await this.sender.send(target, {
        body: delivery.body,
        headers: {
          'webhook-id': delivery.eventId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signMessage(
            delivery.secret,
            delivery.eventId,
            timestamp,
            delivery.body,
          ),
        },
      });
    } catch (error) {
      if (error instanceof RefusedTargetError) return { status: null, error: error.message };
      throw error;
    }
  }
}
