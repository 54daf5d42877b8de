import 'reflect-metadata';
import fastifyCookie from '@fastify/cookie';
import { BadRequestException, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { errorCodes, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { AppModule } from './app.module.js';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter.js';
import { ClientErrorHandler } from './common/filters/client-error.handler.js';
import { bodyEncodingOf, lingerAfterEarlyAnswer, readBody } from './common/http/read-body.js';
import { UnreadBody } from './common/http/unread-body.js';
import { MAX_BODY_DEPTH, nestsDeeperThan } from './common/json-depth.js';
import { JsonLogger } from './common/logging/json-logger.js';
import { RequestLogController } from './common/logging/request-log.controller.js';
import { requestIdOf } from './common/logging/request-id.js';
import { DOCS_PREFIX, HSTS, securityHeaderSets } from './common/security-headers.js';
import { setupOpenApi } from './common/openapi/openapi.js';
import { addLivenessRoute } from './health/liveness.route.js';
import { addScannerBodies } from './ingest/dto/scanner-bodies.openapi.js';
import { DEFAULT_WEB_ROOT, isApiPath, serveWebUi } from './common/web-ui/web-ui.plugin.js';
import { PathParamPipe } from './common/pipes/path-param.pipe.js';
import { prototypeKeyPath } from './common/pipes/prototype-keys.js';
import { createValidationPipe } from './common/pipes/validation.pipe.js';
import { HealthService } from './health/health.service.js';
import { INGEST_PATH, SCANNER_MEDIA_TYPES } from './ingest/ingest-route.js';
import type { AppConfig, LogLevelName } from './config/app-config.js';

/** Body limit of every route but ingestion, which sets its own. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

const PINO_LEVELS: Record<LogLevelName, string> = {
  fatal: 'fatal',
  error: 'error',
  warn: 'warn',
  info: 'info',
  debug: 'debug',
  verbose: 'trace',
};

const isJson = (reply: FastifyReply) =>
  String(reply.getHeader('content-type') ?? '').startsWith('application/json');

/** How often Node looks for requests past their headers or request timeout. */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/** A hop count becomes "the first n hops from this server" (Fastify's own number fails closed). */
function trustProxyOption(
  trust: AppConfig['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/**
 * Fastify's parser refuses `__proto__` (and `constructor.prototype`) keys, as invalid JSON: for
 * valid JSON, the refusal names the key instead.
 */
function prototypeKeyError(text: string): BadRequestException | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const path = prototypeKeyPath(value);
  return path === null ? null : new BadRequestException(`${path} is not an accepted property`);
}

export interface CreateAppOptions {
  /** Replaces the JSON logger for Nest's own messages (tests read what the service logs). */
  logger?: LoggerService;
  /** Where the JSON log lines go instead of stdout. */
  logStream?: { write(line: string): void };
  /** The built browser UI; not served when it holds no index.html. */
  webRoot?: string;
}

/**
 * Builds the whole service, ready to listen: used by main.ts and by the end-to-end tests alike.
 * Connecting runs the pending migrations; initialising creates the bootstrap administrator.
 */
export async function createApp(
  config: AppConfig,
  options: CreateAppOptions = {},
): Promise<NestFastifyApplication> {
  const filter = new AllExceptionsFilter();
  const { api: apiHeaders, docs: docsHeaders, ui: uiHeaders } = securityHeaderSets();
  const { headersTimeoutSeconds, requestTimeoutSeconds, keepAliveTimeoutSeconds } = config.http;
  const clientErrors = new ClientErrorHandler({
    headers: apiHeaders,
    headersTimeoutSeconds,
    requestTimeoutSeconds,
  });
  // Options of Node's own server (over TLS, they go with the certificate).
  const serverOptions = {
    headersTimeout: headersTimeoutSeconds * 1000,
    connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
    // Checked in an onRequest hook instead, to answer in our shape (Node's 400 has no body).
    requireHostHeader: false,
  };
  const adapter = new FastifyAdapter({
    // Errors the router raises itself (bad URL encoding, over-long path) get the same body.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) =>
      filter.reply(error, request, reply),
    bodyLimit: DEFAULT_BODY_LIMIT,
    requestTimeout: requestTimeoutSeconds * 1000,
    keepAliveTimeout: keepAliveTimeoutSeconds * 1000,
    // What Node's HTTP parser refuses (malformed, too large, too slow) gets the same body too.
    clientErrorHandler(this: FastifyInstance, error: Error, socket: Socket) {
      clientErrors.handle(error, socket, this.log);
    },
    // Ingested asset ids may be 200 characters long, more once percent-encoded.
    routerOptions: { maxParamLength: 1000 },
    trustProxy: trustProxyOption(config.trustProxy),
    genReqId: requestIdOf,
    // A request that still reaches us while closing (a kept-alive connection) is served, with
    // Connection: close, rather than answered by Fastify's 503 in a body of its own shape.
    return503OnClosing: false,
    // No Nest middleware anywhere: @fastify/middie would only add a hook to every request.
    skipMiddie: true,
    logger: {
      level: PINO_LEVELS[config.logLevel],
      // process.stdout rather than pino's own asynchronous destination: on Linux it writes
      // synchronously (files, pipes and terminals alike), so the last lines before an exit
      // come out, in order (pino's own wrote a line still in flight after the exit's line).
      stream: options.logStream ?? process.stdout,
      formatters: { level: (label: string) => ({ level: label }) },
      timestamp: () => `,"time":"${new Date().toISOString()}"`,
    },
    logController: new RequestLogController(),
    childLoggerFactory: RequestLogController.childLoggerFactory,
    ...(config.tls
      ? {
          https: {
            cert: readFileSync(config.tls.certFile),
            key: readFileSync(config.tls.keyFile),
            ...serverOptions,
          },
        }
      : { http: serverOptions }),
  });
  const logger = options.logger ?? new JsonLogger(adapter.getInstance().log);
  // bodyParser off: Fastify's own JSON parser is the only one; anything else is a 415.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger,
    bodyParser: false,
  });

  const fastify = app.getHttpAdapter().getInstance();
  // Only the single sign-on's routes read cookies, when they need one: no hook parses them on
  // every request.
  await fastify.register(fastifyCookie, { hook: false });
  const health = app.get(HealthService);
  const servingUi = await serveWebUi(fastify, options.webRoot ?? DEFAULT_WEB_ROOT);
  fastify.addHook('onRequest', (request, reply, done) => {
    clientErrors.track(request.raw, reply.raw, request.id);
    // HTTP/1.1 requires Host (RFC 9112, section 3.2); without it the request is refused.
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      void reply
        .header('connection', 'close')
        .status(400)
        .send({ error: 'Host header is required' });
      return;
    }
    done();
  });
  // On sending rather than on receiving: an answer to a request that came in before SIGTERM
  // must close its connection too, or that idle keep-alive connection holds the server open.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    // Routes are registered with their prefix, so these are plain string tests.
    // The UI's own headers go with its files and pages only: a JSON answer (a 404 outside
    // /api included) keeps the API's.
    if (request.url.startsWith(DOCS_PREFIX)) reply.headers(docsHeaders);
    else if (!servingUi || isApiPath(request.url) || isJson(reply)) reply.headers(apiHeaders);
    else reply.headers(uiHeaders);
    reply.header('x-request-id', request.id);
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    // Draining: each connection ends after its answer, so clients reconnect to another replica.
    if (health.shuttingDown) reply.header('connection', 'close');
    else lingerAfterEarlyAnswer(request, reply);
    done(null, payload);
  });
  fastify.removeContentTypeParser('text/plain');
  // Bulk bodies are read once the caller is authorised, and parsed off the event loop, by the
  // ingestion service; an encoding it cannot read is refused before that.
  const unreadIngestBody = (
    request: FastifyRequest,
    payload: NodeJS.ReadableStream,
    done: (error: Error | null, body?: unknown) => void,
  ) => {
    try {
      done(null, new UnreadBody(request, payload, bodyEncodingOf(request.headers)));
    } catch (error) {
      done(error as Error);
    }
  };
  // Fastify's JSON parser (prototype-poisoning safe) over our own body reader (readBody), and an
  // empty body is no body rather than a 400: clients send Content-Type: application/json on
  // bodiless DELETEs.
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', (request, payload, done) => {
    if (request.routeOptions.url === INGEST_PATH) return unreadIngestBody(request, payload, done);
    readBody(request, payload, (error, body) => {
      if (error || !body) return done(error);
      if (body.length === 0) return done(null, undefined);
      const text = body.toString();
      void parseJson(request, text, (parseError, value) => {
        if (parseError) return done(prototypeKeyError(text) ?? parseError);
        if (nestsDeeperThan(value, MAX_BODY_DEPTH)) {
          return done(new BadRequestException(`body nests deeper than ${MAX_BODY_DEPTH} levels`));
        }
        done(null, value);
      });
    });
  });

  // Scanner output (XML, CSV) is for the ingestion only: elsewhere, the 415 of any other type.
  fastify.addContentTypeParser([...SCANNER_MEDIA_TYPES], (request, payload, done) => {
    if (request.routeOptions.url === INGEST_PATH) return unreadIngestBody(request, payload, done);
    done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(request.headers['content-type']));
  });

  // Ingestion takes bulk bodies; every other route keeps the 1 MiB limit.
  fastify.addHook('onRoute', (route) => {
    if (route.url === INGEST_PATH) route.bodyLimit = config.ingestMaxBytes;
  });

  app.useGlobalFilters(filter);
  app.useGlobalPipes(new PathParamPipe(), createValidationPipe());
  app.setGlobalPrefix('api');
  setupOpenApi(app, config.version, (document) =>
    // The document's paths are OpenAPI's ({id}); the ingestion's has no parameter.
    addScannerBodies(addLivenessRoute(document), INGEST_PATH),
  );
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins,
      // @fastify/cors allows only GET, HEAD and POST unless told: the UI also updates, triages and
      // deletes.
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      // Content-Encoding: a page may gzip a scanner file before sending it to the ingestion.
      allowedHeaders: [
        'Authorization',
        'Content-Type',
        'Content-Encoding',
        'X-Request-Id',
        'Idempotency-Key',
      ],
      exposedHeaders: [
        // An export's file name.
        'Content-Disposition',
        'X-Total-Count',
        'Link',
        'Retry-After',
        'X-Request-Id',
        'Idempotent-Replayed',
      ],
    });
  }
  // No enableShutdownHooks: main.ts runs the shutdown sequence (common/lifecycle) itself.

  await app.init();
  return app;
}
