import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import type { AppDataSource } from '../../src/database/app-data-source.js';
import { createApp } from '../../src/app.factory.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { CaptureLogger } from './capture-logger.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export const ADMIN_EMAIL = 'admin@localhost';
export const ADMIN_PASSWORD = 'admin-password-for-tests';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Sent as is, with the given headers (for malformed or non-JSON bodies). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

export interface StartOptions {
  /** Nest's messages go to the JSON log as in production, instead of the capture logger. */
  jsonLogs?: boolean;
  /** The built browser UI to serve, instead of the repository's web/dist (if built). */
  webRoot?: string;
}

/** The real service, booted as main.ts boots it, listening on a free port of the loopback. */
export class TestApp {
  private constructor(
    readonly app: NestFastifyApplication,
    readonly config: AppConfig,
    readonly logger: CaptureLogger,
    /** Every JSON line the service logged (request lines, and Nest's with `jsonLogs`). */
    readonly logLines: string[],
    readonly baseUrl: string,
    private readonly database: TestDatabase | null,
  ) {}

  /** Boots on a database of its own, dropped on close, or on the one given, left to its owner. */
  static async start(
    env: Record<string, string> = {},
    shared?: TestDatabase,
    options: StartOptions = {},
  ): Promise<TestApp> {
    const database = shared ?? (await createTestDatabase());
    const config = loadConfig({
      DATABASE_URL: database.url,
      ADMIN_PASSWORD,
      // Tests log in often; the rate-limit tests set their own, small limits.
      LOGIN_RATE_LIMIT: '100000',
      RATE_LIMIT: '100000',
      ...env,
    });
    const logger = new CaptureLogger();
    const logLines: string[] = [];
    const app = await createApp(config, {
      logger: options.jsonLogs ? undefined : logger,
      logStream: { write: (line) => void logLines.push(line) },
      webRoot: options.webRoot,
    });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    // Over TLS, the name the tests' self-signed certificate is made out to.
    const baseUrl = config.tls ? `https://localhost:${port}` : `http://127.0.0.1:${port}`;
    return new TestApp(app, config, logger, logLines, baseUrl, shared ? null : database);
  }

  /** The log lines parsed, optionally only those with the given message. */
  logEntries(message?: string): Record<string, any>[] {
    const entries = this.logLines.map((line) => JSON.parse(line) as Record<string, any>);
    return message === undefined ? entries : entries.filter((entry) => entry.msg === message);
  }

  get dataSource(): DataSource {
    return this.app.get(DataSource);
  }

  /**
   * Runs the test's own writes of fixtures to the inventory as the service's one writer would
   * (unrecorded): any other write to it is refused (InventoryWriteGuard).
   */
  seed<T>(work: () => Promise<T>): Promise<T> {
    return (this.dataSource as AppDataSource).asWriter(work);
  }

  request<T = any>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    return httpRequest<T>(this.baseUrl, method, path, options);
  }

  async login(email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<string> {
    const response = await this.request('POST', '/api/auth/login', { body: { email, password } });
    if (response.status !== 200) throw new Error(`login failed: ${JSON.stringify(response.body)}`);
    return response.body.token as string;
  }

  /** Creates a user through the API as the admin and returns a session token for it. */
  async createUser(role: string, email = `${role}-${Date.now()}-${Math.random()}@example.com`) {
    const password = `${role}-password-123`;
    const admin = await this.login();
    const created = await this.request('POST', '/api/users', {
      token: admin,
      body: { email, name: `A ${role}`, password, role },
    });
    if (created.status !== 201)
      throw new Error(`user creation failed: ${JSON.stringify(created.body)}`);
    return {
      id: created.body.id as string,
      email,
      password,
      token: await this.login(email, password),
    };
  }

  async close(): Promise<void> {
    await this.app.close();
    await this.database?.drop();
  }
}

/** One call of the API over HTTP, its JSON body parsed. */
export async function httpRequest<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

/** Every error answer has exactly one field, `error`, a non-empty sentence. */
export function expectErrorBody(response: ApiResponse, pattern?: RegExp): void {
  expect(Object.keys(response.body ?? {})).toEqual(['error']);
  expect(typeof response.body.error).toBe('string');
  expect(response.body.error.length).toBeGreaterThan(0);
  if (pattern) expect(response.body.error).toMatch(pattern);
}
