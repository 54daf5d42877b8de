import 'reflect-metadata';
import {
  BadRequestException,
  ConsoleLogger,
  type LoggerService,
  type LogLevel,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { AppModule } from './app.module.js';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter.js';
import { MAX_BODY_DEPTH, nestsDeeperThan } from './common/json-depth.js';
import { PathParamPipe } from './common/pipes/path-param.pipe.js';
import { createValidationPipe } from './common/pipes/validation.pipe.js';
import { INGEST_PATH } from './ingest/ingest.controller.js';
import type { AppConfig, LogLevelName } from './config/app-config.js';

/** Body limit of every route but ingestion, which sets its own. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

const NEST_LOG_LEVELS: Record<LogLevelName, LogLevel[]> = {
  fatal: ['fatal'],
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  info: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  verbose: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

export interface CreateAppOptions {
  /** Replaces the console logger (tests read what the service logs). */
  logger?: LoggerService;
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
  const adapter = new FastifyAdapter({
    // Errors the router raises itself (bad URL encoding, over-long path) get the same body.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) =>
      filter.reply(error, request, reply),
    bodyLimit: DEFAULT_BODY_LIMIT,
    // Ingested asset ids may be 200 characters long, more once percent-encoded.
    routerOptions: { maxParamLength: 1000 },
    trustProxy: config.trustProxy,
    genReqId: () => randomUUID(),
    ...(config.tls && {
      https: { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) },
    }),
  });
  const logger =
    options.logger ?? new ConsoleLogger({ logLevels: NEST_LOG_LEVELS[config.logLevel] });
  // bodyParser off: Fastify's own JSON parser is the only one; anything else is a 415.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger,
    bodyParser: false,
  });

  const fastify = app.getHttpAdapter().getInstance();
  fastify.removeContentTypeParser('text/plain');
  // Fastify's JSON parser (prototype-poisoning safe), but an empty body is no body rather than
  // a 400: clients send Content-Type: application/json on bodiless DELETEs.
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    void parseJson(request, body as string, (error, value) => {
      if (!error && nestsDeeperThan(value, MAX_BODY_DEPTH)) {
        return done(new BadRequestException(`body nests deeper than ${MAX_BODY_DEPTH} levels`));
      }
      done(error, value);
    });
  });

  // Ingestion takes bulk bodies; every other route keeps the 1 MiB limit.
  fastify.addHook('onRoute', (route) => {
    if (route.url === INGEST_PATH) route.bodyLimit = config.ingestMaxBytes;
  });

  app.useGlobalFilters(filter);
  app.useGlobalPipes(new PathParamPipe(), createValidationPipe());
  app.setGlobalPrefix('api');
  if (config.corsOrigins.length > 0) {
    app.enableCors({
      origin: config.corsOrigins,
      allowedHeaders: ['Authorization', 'Content-Type'],
    });
  }
  app.enableShutdownHooks();

  await app.init();
  return app;
}
