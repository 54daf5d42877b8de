import { Inject, Injectable } from '@nestjs/common';
import { UnavailableError } from '../common/errors/unavailable.error.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { DatabaseRepository } from '../database/repositories/database.repository.js';
import type { HealthResponse } from './dto/health-response.dto.js';

/** A database that has not answered by then is reported as not ready. */
const READINESS_TIMEOUT_MS = 2_000;

@Injectable()
export class HealthService {
  private readonly startedAt = Date.now();
  private stopping = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly database: DatabaseRepository,
  ) {}

  /** Liveness: the process answers. Touches nothing else, so it stays fast under any load. */
  live(): HealthResponse {
    return this.response('Asset Map is running');
  }

  /** From SIGTERM on, readiness fails so that the orchestrator stops routing requests here. */
  beginShutdown(): void {
    this.stopping = true;
  }

  get shuttingDown(): boolean {
    return this.stopping;
  }

  /** Readiness: not shutting down, and the database answers a trivial query in time. */
  async ready(): Promise<HealthResponse> {
    if (this.stopping) throw new UnavailableError('Not ready: shutting down');
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), READINESS_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.database.ping(), timeout]);
    } catch {
      throw new UnavailableError('Not ready: the database does not answer');
    } finally {
      clearTimeout(timer);
    }
    return this.response('Asset Map is ready: the database answers');
  }

  private response(message: string): HealthResponse {
    return {
      status: 'ok',
      message,
      version: this.config.version,
      uptime: Math.floor((Date.now() - this.startedAt) / 1000),
    };
  }
}
