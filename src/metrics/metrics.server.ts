import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ClientErrorHandler } from '../common/filters/client-error.handler.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { MetricsService } from './metrics.service.js';

export const METRICS_PATH = '/metrics';

/** A scrape is one small GET: anything slower is not a scraper. */
const REQUEST_TIMEOUT_MS = 10_000;

const BEARER = /^Bearer +(\S+) *$/i;

/** Headers of every answer here. */
const ANSWER_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * GET /metrics on a port of its own (METRICS_PORT), never the API's: the public ingress routes
 * to the API's port only, while Prometheus scrapes the pod directly. Node's HTTP server rather
 * than a second Fastify: one route, and every answer, malformed requests' included, is ours to
 * shape as `{"error": "..."}`.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private readonly tokenDigest: Buffer | null;
  private server: Server | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {
    // Compared as digests: equal lengths, in constant time, whatever the client sends.
    this.tokenDigest = config.metrics?.token ? digest(config.metrics.token) : null;
  }

  /** Listening before the API does: a taken port stops the start-up. */
  async onApplicationBootstrap(): Promise<void> {
    const settings = this.config.metrics;
    if (!settings) return;
    const server = createServer(
      {
        requestTimeout: REQUEST_TIMEOUT_MS,
        headersTimeout: REQUEST_TIMEOUT_MS,
        // How often those timeouts are checked (Node's default, 30 s, would triple them).
        connectionsCheckingInterval: 1000,
      },
      (request, response) => void this.answer(request, response),
    );
    // What Node's parser refuses is answered as on the API's port.
    const clientErrors = new ClientErrorHandler({
      headers: ANSWER_HEADERS,
      headersTimeoutSeconds: REQUEST_TIMEOUT_MS / 1000,
      requestTimeoutSeconds: REQUEST_TIMEOUT_MS / 1000,
    });
    const log = {
      info: (fields: object, message: string) => this.logger.debug({ ...fields, message }),
    };
    server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) =>
      clientErrors.handle(error, socket, log),
    );
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(settings.port, settings.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    const { address, port } = this.address()!;
    this.logger.log(`Metrics served on http://${address}:${port}${METRICS_PATH}`);
  }

  /** Where it listens (null when metrics are off): with METRICS_PORT=0, the port picked. */
  address(): AddressInfo | null {
    return (this.server?.address() as AddressInfo | null) ?? null;
  }

  /** After the API has closed: the last scrapes of a draining replica still get answers. */
  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    for (const [name, value] of Object.entries(ANSWER_HEADERS)) response.setHeader(name, value);
    // The token first: without it, no answer tells what is served here.
    if (this.tokenDigest && !this.authorized(request.headers.authorization)) {
      response.setHeader('www-authenticate', 'Bearer');
      return this.fail(response, 401, 'A valid bearer token (METRICS_TOKEN) is required');
    }
    if (request.url?.split('?')[0] !== METRICS_PATH) {
      return this.fail(response, 404, `Nothing here: metrics are at ${METRICS_PATH}`);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD');
      return this.fail(response, 405, `${request.method} is not allowed: use GET`);
    }
    let text: string;
    try {
      text = await this.metrics.render();
    } catch (error) {
      this.logger.error('Collecting the metrics failed', (error as Error).stack);
      return this.fail(response, 500, 'Collecting the metrics failed');
    }
    response.writeHead(200, { 'content-type': this.metrics.contentType });
    response.end(request.method === 'HEAD' ? undefined : text);
  }

  private authorized(header: string | undefined): boolean {
    const token = header && BEARER.exec(header)?.[1];
    return !!token && timingSafeEqual(digest(token), this.tokenDigest!);
  }

  private fail(response: ServerResponse, status: number, message: string): void {
    response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify({ error: message }));
  }
}
