import { Injectable } from '@nestjs/common';
import { v4 as uuidv4 } from 'uuid';
import { ConflictError } from '../common/errors/conflict.error.js';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import { NotFoundError } from '../common/errors/not-found.error.js';
import type { WebhookDelivery } from '../database/entities/webhook-delivery.entity.js';
import type { Webhook } from '../database/entities/webhook.entity.js';
import type { WebhookFilter } from '../database/outbox/event-types.js';
import { OutboxSignal } from '../database/outbox/outbox-signal.js';
import { WebhooksRepository } from '../database/repositories/webhooks.repository.js';
import { newWebhookSecret } from './delivery/message-signature.js';
import { RefusedTargetError, WebhookTargets } from './delivery/webhook-targets.js';
import type { CreateWebhookDto } from './dto/create-webhook.dto.js';
import type { UpdateWebhookDto } from './dto/update-webhook.dto.js';

const MAX_FILTER_ENTRIES = 100;
const MAX_NAME_LENGTH = 255;

/** A filter's list of names, checked; `field` names it in errors. */
function namesOf(value: unknown, field: string): string[] {
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.length > MAX_FILTER_ENTRIES ||
    !value.every((name) => typeof name === 'string' && name.length > 0)
  ) {
    throw new InvalidInputError(
      `${field} must be a list of 1 to ${MAX_FILTER_ENTRIES} non-empty strings`,
    );
  }
  const names = value as string[];
  const long = names.findIndex((name) => name.length > MAX_NAME_LENGTH);
  if (long >= 0) {
    throw new InvalidInputError(`${field}[${long}] must be at most ${MAX_NAME_LENGTH} characters`);
  }
  return [...new Set(names)];
}

/** A webhook's `filter` as given (a JSON object, or null), checked field by field. */
export function filterOf(given: object | null): WebhookFilter | null {
  if (given === null) return null;
  const filter: WebhookFilter = {};
  for (const [key, value] of Object.entries(given as Record<string, unknown>)) {
    if (key === 'minScore') {
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 10) {
        throw new InvalidInputError('filter.minScore must be a number from 0 to 10');
      }
      filter.minScore = value;
    } else if (key === 'sources' || key === 'sites') {
      filter[key] = namesOf(value, `filter.${key}`);
    } else {
      throw new InvalidInputError(`filter.${key} is not a filter (minScore, sources, sites)`);
    }
  }
  return filter;
}

const webhookNotFound = (id: string) => new NotFoundError(`webhook ${id} not found`);

/** The webhooks (admin): their routes' logic; the sending is DeliveryDispatcher's. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly webhooks: WebhooksRepository,
    private readonly targets: WebhookTargets,
    private readonly signal: OutboxSignal,
  ) {}

  list(): Promise<Webhook[]> {
    return this.webhooks.list();
  }

  async get(id: string): Promise<Webhook> {
    const webhook = await this.webhooks.find(id);
    if (webhook === null) throw webhookNotFound(id);
    return webhook;
  }

  async create(dto: CreateWebhookDto): Promise<Webhook> {
    const now = new Date();
    const webhook: Webhook = {
      id: uuidv4(),
      url: await this.checkedUrl(dto.url),
      events: [...new Set(dto.events)],
      filter: filterOf(dto.filter ?? null),
      enabled: dto.enabled ?? true,
      secret: newWebhookSecret(),
      failingSince: null,
      disabledReason: null,
      claimedUntil: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.webhooks.insert(webhook);
    return webhook;
  }

  async update(id: string, dto: UpdateWebhookDto): Promise<Webhook> {
    const webhook = await this.get(id);
    const changes: Partial<Webhook> = { updatedAt: new Date() };
    if (dto.url !== undefined) changes.url = await this.checkedUrl(dto.url);
    if (dto.events !== undefined) changes.events = [...new Set(dto.events)];
    if (dto.filter !== undefined) changes.filter = filterOf(dto.filter);
    if (dto.enabled !== undefined) {
      changes.enabled = dto.enabled;
      // Enabled again by hand: its failures start anew.
      if (dto.enabled && !webhook.enabled) {
        changes.disabledReason = null;
        changes.failingSince = null;
      }
    }
    await this.webhooks.update(id, changes);
    return { ...webhook, ...changes };
  }

  async remove(id: string): Promise<void> {
    if (!(await this.webhooks.delete(id))) throw webhookNotFound(id);
  }

  async ping(id: string): Promise<void> {
    const webhook = await this.get(id);
    if (!webhook.enabled) throw new ConflictError(`webhook ${id} is disabled`);
    await this.webhooks.ping(id, new Date());
    this.signal.notify();
  }

  async deliveries(
    id: string,
    paging: { limit: number; offset: number },
  ): Promise<{ deliveries: WebhookDelivery[]; total: number }> {
    await this.get(id);
    return this.webhooks.deliveriesOf(id, paging);
  }

  async redeliver(id: string, deliveryId: string): Promise<void> {
    await this.get(id);
    if (!(await this.webhooks.redeliver(id, deliveryId, new Date()))) {
      throw new NotFoundError(`delivery ${deliveryId} of webhook ${id} not found`);
    }
    this.signal.notify();
  }

  /** The URL, once its form and every address its host resolves to pass; else a 400. */
  private async checkedUrl(url: string): Promise<string> {
    try {
      await this.targets.check(url);
    } catch (error) {
      if (error instanceof RefusedTargetError) throw new InvalidInputError(error.message);
      throw error;
    }
    return url;
  }
}
