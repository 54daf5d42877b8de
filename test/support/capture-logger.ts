import type { LoggerService } from '@nestjs/common';

/** Keeps what the service logs, so that tests can read it; prints nothing. */
export class CaptureLogger implements LoggerService {
  readonly lines: { level: string; message: string }[] = [];

  log(message: unknown): void {
    this.keep('log', message);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.keep('error', [message, ...rest].join('\n'));
  }
  warn(message: unknown): void {
    this.keep('warn', message);
  }
  debug(message: unknown): void {
    this.keep('debug', message);
  }
  verbose(message: unknown): void {
    this.keep('verbose', message);
  }
  fatal(message: unknown): void {
    this.keep('fatal', message);
  }

  text(): string {
    return this.lines.map((line) => `${line.level}: ${line.message}`).join('\n');
  }

  private keep(level: string, message: unknown): void {
    this.lines.push({ level, message: String(message) });
  }
}
