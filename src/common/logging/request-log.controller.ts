import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';
import type { Principal } from '../principal.js';

type PinoLogger = FastifyBaseLogger & { isLevelEnabled(level: string): boolean };

/**
 * One line per request, written when the response is finished: request id, method, route,
 * status, duration, client address and the actor (the user's id and, with an API key, its
 * displayable prefix; null before authentication). Headers and bodies
 * are never logged (they carry tokens, API keys and passwords).
 */
export class RequestLogController extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' });
  }

  /**
   * No child logger per request (Fastify's default, a noticeable share of /api/health's time):
   * the request line carries the request id itself, and nothing else logs through request.log.
   */
  static readonly childLoggerFactory = <T>(logger: T): T => logger;

  override incomingRequest(): void {
    // The completed line says everything; a second line per request would only double the volume.
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (!error && !(reply.log as PinoLogger).isLevelEnabled('info')) return;
    const user = (request as FastifyRequest & { user?: Principal }).user;
    const line = {
      requestId: request.id,
      method: request.method,
      // The route template keeps ids out of what is aggregated; the path is there for search.
      route: request.routeOptions.url ?? null,
      path: request.url.split('?', 1)[0],
      status: reply.statusCode,
      durationMs: Math.round(reply.elapsedTime * 100) / 100,
      ip: request.ip,
      userId: user?.userId ?? null,
      apiKeyPrefix: user?.apiKeyPrefix ?? null,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request failed');
    else reply.log.info(line, 'request');
  }

  override defaultErrorLog(): void {
    // AllExceptionsFilter answers and logs every error itself.
  }

  override routeNotFound(): void {
    // The request line already records the 404.
  }
}
