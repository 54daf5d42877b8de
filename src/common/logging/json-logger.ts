import type { LoggerService } from '@nestjs/common';
import type { FastifyBaseLogger } from 'fastify';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

// What Nest's ConsoleLogger recognises as a stack trace passed as the second argument.
const STACK = /^(.)+\n\s+at .+:\d+:\d+/;

/**
 * Nest's own log calls (`new Logger('Context').warn(...)`) written through Fastify's pino logger,
 * so that the service prints one kind of line: JSON with level, time, context and message.
 */
export class JsonLogger implements LoggerService {
  constructor(private readonly pino: FastifyBaseLogger) {}

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    const fields: Record<string, unknown> = {};
    const rest = [...params];
    // Nest's Logger appends its context as the last argument.
    if (rest.length > 0 && typeof rest.at(-1) === 'string' && !STACK.test(rest.at(-1) as string)) {
      fields.context = rest.pop();
    }
    const details: unknown[] = [];
    for (const extra of rest) {
      if (typeof extra === 'string' && STACK.test(extra)) fields.stack = extra;
      else if (extra !== undefined) details.push(extra);
    }
    if (details.length > 0) fields.details = details;
    if (message instanceof Error) {
      fields.err = message;
      this.pino[level](fields, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level]({ ...fields, ...message });
    } else {
      this.pino[level](fields, String(message));
    }
  }
}
