import { Logger } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { HealthService } from './health.service.js';

/** Kubernetes kills the pod 30 s after SIGTERM by default; give up a little before that. */
const HARD_LIMIT_MS = 28_000;

/**
 * The shutdown sequence: readiness turns 503 at once, requests keep being served for the delay
 * (the orchestrator takes a moment to stop routing here), then the server stops accepting,
 * waits for the requests in flight (an ingestion included), and the database closes last.
 */
export async function shutDown(app: NestFastifyApplication, delayMs: number): Promise<void> {
  app.get(HealthService).beginShutdown();
  if (delayMs > 0) await sleep(delayMs);
  await app.close();
}

/** SIGTERM or SIGINT runs the sequence once, then exits 0; 1 if it fails or takes too long. */
export function shutDownOnSignals(app: NestFastifyApplication, delayMs: number): void {
  const logger = new Logger('Shutdown');
  const onSignal = (signal: NodeJS.Signals): void => {
    process.removeListener('SIGTERM', onSignal);
    process.removeListener('SIGINT', onSignal);
    logger.log(`${signal}: no longer ready; closing in ${delayMs / 1000} s`);
    setTimeout(() => {
      logger.error(`Still closing ${HARD_LIMIT_MS / 1000} s after ${signal}: exiting anyway`);
      process.exit(1);
    }, HARD_LIMIT_MS).unref();
    shutDown(app, delayMs).then(
      () => {
        logger.log('Requests finished and database closed: exiting');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error(`Shutdown failed: ${(error as Error).message}`, (error as Error).stack);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
