import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { Histogram } from 'prom-client';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { MetricsService } from './metrics.service.js';

/** The route label of a request no route matched (a 404): one value, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

type Observe = (seconds: number) => void;

/**
 * Times every answer of the API by route pattern (`/api/assets/:id`, never the URL itself, so
 * that the number of series stays bounded), method and status, from a Fastify onResponse hook.
 */
@Injectable()
export class HttpMetricsHook implements OnModuleInit {
  private readonly duration: Histogram<'route' | 'method' | 'status_code'>;
  /** route → method → status → the histogram's child for those labels, made once. */
  private readonly observers = new Map<string, Map<string, Map<number, Observe>>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    metrics: MetricsService,
  ) {
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to the end of its answer, by route pattern, method and status; its _count is the number of requests',
      labelNames: ['route', 'method', 'status_code'],
      registers: [metrics.registry],
    });
  }

  /** Fastify applies a hook to every route, whenever declared, as long as it has not started. */
  onModuleInit(): void {
    if (!this.config.metrics) return;
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // Kept cheap (the liveness route is benchmarked against bare Fastify): three map look-ups
    // and one observation, with labels made once per combination.
    fastify.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      this.observer(route, request.method, reply.statusCode)(reply.elapsedTime / 1000);
      done();
    });
  }

  private observer(route: string, method: string, status: number): Observe {
    let byMethod = this.observers.get(route);
    if (!byMethod) this.observers.set(route, (byMethod = new Map<string, Map<number, Observe>>()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map<number, Observe>()));
    let observe = byStatus.get(status);
    if (!observe) {
      const child = this.duration.labels({ route, method, status_code: status });
      observe = (seconds) => child.observe(seconds);
      byStatus.set(status, observe);
    }
    return observe;
  }
}
