import { Inject, Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';

/** The registry holding every metric of this application, and its text for a scrape. */
@Injectable()
export class MetricsService {
  /** One per application rather than prom-client's global one: tests run several in a process. */
  readonly registry = new Registry();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    // Node's own metrics (CPU, memory, GC, event-loop delay) watch the process continuously:
    // only when someone can read them.
    if (config.metrics) collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Collected now: the gauges read at scrape time (the database pool's) are read here. */
  render(): Promise<string> {
    return this.registry.metrics();
  }
}
