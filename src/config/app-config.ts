import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { readOidc, readPublicUrl, type OidcConfig } from './oidc-config.js';

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export type LogLevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'verbose';

export interface AppConfig {
  production: boolean;
  version: string;
  port: number;
  host: string;
  database: DatabaseConfig;
  jwt: { secret: string; generated: boolean; expiresInSeconds: number };
  admin: { email: string; password: string | null };
  corsOrigins: string[];
  tls: { certFile: string; keyFile: string } | null;
  /** false, a number of proxy hops to trust, or the proxies' addresses / CIDR ranges. */
  trustProxy: false | number | string[];
  rateLimit: { limit: number; windowSeconds: number; loginLimit: number };
  redisUrl: string | null;
  ingestMaxBytes: number;
  logLevel: LogLevelName;
  /** Run pending migrations at start (a PostgreSQL advisory lock keeps replicas from racing). */
  runMigrations: boolean;
  /** After SIGTERM, readiness answers 503 this long before the server stops taking requests. */
  shutdownDelaySeconds: number;
  /** Prometheus metrics on a port of their own (never the API's); null: not served. */
  metrics: MetricsConfig | null;
  http: HttpTimeouts;
  /**
   * Whether writes record their change history. Bench only (CHANGE_HISTORY=off), to measure
   * what the records cost; a service always keeps it on.
   */
  changeHistory: boolean;
  /** Days from a finding's opening (or last reopening) to its due date, by severity. */
  findingSlaDays: Record<SlaSeverity, number>;
  webhooks: WebhooksConfig;
  /** Single sign-on through an OpenID Connect provider; null: password sign-in only. */
  oidc: OidcConfig | null;
  /** Where users reach the service (the sign-on's redirect URI); null: each request's origin. */
  publicUrl: string | null;
}

/** How events are sent to webhooks. */
export interface WebhooksConfig {
  /** `http://` URLs accepted (tests, closed networks); else `https://` only. */
  allowHttp: boolean;
  /** Hosts resolving to loopback, private or link-local addresses accepted. */
  allowPrivate: boolean;
  /** Most deliveries in flight at once, per process. */
  concurrency: number;
  /** An answer later than this is a failure. */
  timeoutMs: number;
  /** The delay before the first retry; each next one doubles it (at most an hour). */
  firstRetryMs: number;
  /** How long a delivery is retried from its first attempt before it is failed. */
  retryForSeconds: number;
  /** A webhook failing this long without a success is disabled. */
  disableAfterSeconds: number;
  /** How often the outbox is looked at for other processes' events and retries due. */
  pollMs: number;
  /** How often feeds are checked for lateness and findings for their due date. */
  checkEverySeconds: number;
}

export interface MetricsConfig {
  /** 0: any free port (tests). */
  port: number;
  host: string;
  /** When set, a scrape must send `Authorization: Bearer <token>`. */
  token: string | null;
}

/** How long a connection may take; a client slower than this gets a 408 and is disconnected. */
export interface HttpTimeouts {
  /** From a request's first byte to the end of its headers. */
  headersTimeoutSeconds: number;
  /** From a request's first byte to the end of its body (a bulk ingestion's upload included). */
  requestTimeoutSeconds: number;
  /** How long an idle connection is kept open for the client's next request. */
  keepAliveTimeoutSeconds: number;
}

/** A bad environment variable; its message is the one line printed before exiting. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const LOG_LEVELS: readonly LogLevelName[] = ['fatal', 'error', 'warn', 'info', 'debug', 'verbose'];
const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };
// Same rule as the API's e-mail validation: local@domain, no dotted domain required.
const EMAIL = /^[^\s@]+@[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 12;
const MIN_JWT_SECRET_LENGTH = 32;

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

/**
 * DATABASE_URL alone: what the migration entry point needs, so that its Job is given the
 * database and nothing else (not the JWT secret the service requires in production).
 */
export function loadDatabaseConfig(env: Env): DatabaseConfig {
  const databaseUrl = env.DATABASE_URL?.trim() || 'sqlite:./data/assetmap.sqlite';
  const fail = (why: string): never => {
    throw new ConfigError(`DATABASE_URL ${why}`);
  };
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file === '') fail('must name a file after "sqlite:"');
    return { kind: 'sqlite', file };
  }
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    if (!URL.canParse(databaseUrl)) fail('is not a valid postgres:// URL');
    return { kind: 'postgres', url: databaseUrl };
  }
  return fail(`must start with "sqlite:" or "postgres://", got "${databaseUrl.split(':')[0]}:..."`);
}

/** Reads and validates every variable of CONTRACT section 1; throws ConfigError naming the first bad one. */
export function loadConfig(env: Env): AppConfig {
  const get = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const fail = (name: string, why: string): never => {
    throw new ConfigError(`${name} ${why}`);
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      fail(name, `must be an integer from ${min} to ${max}, got "${raw}"`);
    }
    return Number(raw);
  };
  const boolean = (name: string, fallback: boolean): boolean => {
    const raw = get(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['true', '1', 'yes'].includes(raw)) return true;
    if (['false', '0', 'no'].includes(raw)) return false;
    return fail(name, `must be true or false, got "${raw}"`);
  };

  const production = get('NODE_ENV') === 'production';

  const host = get('HOST') ?? '0.0.0.0';
  if (host !== 'localhost' && isIP(host) === 0)
    fail('HOST', `must be an IP address, got "${host}"`);

  const database = loadDatabaseConfig(env);

  let jwtSecret = get('JWT_SECRET');
  const generated = jwtSecret === undefined;
  if (jwtSecret === undefined) {
    if (production) fail('JWT_SECRET', 'is required when NODE_ENV=production');
    jwtSecret = randomBytes(48).toString('base64url');
  } else if (jwtSecret.length < MIN_JWT_SECRET_LENGTH) {
    fail('JWT_SECRET', `must be at least ${MIN_JWT_SECRET_LENGTH} characters long`);
  }

  const expiresRaw = get('JWT_EXPIRES_IN') ?? '8h';
  const expires = /^(\d+)([smhd]?)$/.exec(expiresRaw);
  const expiresInSeconds = expires ? Number(expires[1]) * DURATION_UNITS[expires[2] || 's'] : 0;
  if (!expires || expiresInSeconds <= 0) {
    fail(
      'JWT_EXPIRES_IN',
      `must be a positive duration such as 900, 30m, 8h or 7d, got "${expiresRaw}"`,
    );
  }

  const adminEmail = (get('ADMIN_EMAIL') ?? 'admin@localhost').toLowerCase();
  if (!EMAIL.test(adminEmail))
    fail('ADMIN_EMAIL', `must be an e-mail address, got "${adminEmail}"`);
  const adminPassword = get('ADMIN_PASSWORD') ?? null;
  if (adminPassword !== null && adminPassword.length < MIN_PASSWORD_LENGTH) {
    fail('ADMIN_PASSWORD', `must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  }

  const corsOrigins = (get('CORS_ORIGINS') ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter((origin) => origin !== '');
  for (const origin of corsOrigins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || parsed.origin !== origin) {
      fail('CORS_ORIGINS', `must list origins such as https://ui.example.com, got "${origin}"`);
    }
  }

  const certFile = get('TLS_CERT_FILE');
  const keyFile = get('TLS_KEY_FILE');
  if ((certFile === undefined) !== (keyFile === undefined)) {
    fail(
      certFile ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE',
      'must be set together with the other TLS file',
    );
  }

  const trustProxy = readTrustProxy(get('TRUST_PROXY'), fail);

  const redisUrl = get('REDIS_URL') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\/./.test(redisUrl)) {
    fail('REDIS_URL', 'must start with redis:// or rediss://');
  }

  const logLevel = (get('LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel as LogLevelName)) {
    fail('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }

  const headersTimeoutSeconds = integer('HTTP_HEADERS_TIMEOUT_S', 20, 1, 3600);
  // Node refuses a headers timeout longer than the request's.
  const requestTimeoutSeconds = integer(
    'HTTP_REQUEST_TIMEOUT_S',
    Math.max(600, headersTimeoutSeconds),
    headersTimeoutSeconds,
    86_400,
  );

  return {
    production,
    version: readVersion(),
    port: integer('PORT', 3000, 0, 65535),
    host,
    database,
    jwt: { secret: jwtSecret, generated, expiresInSeconds },
    admin: { email: adminEmail, password: adminPassword },
    corsOrigins,
    tls: certFile && keyFile ? { certFile, keyFile } : null,
    trustProxy,
    rateLimit: {
      limit: integer('RATE_LIMIT', 1000, 1, 1_000_000_000),
      windowSeconds: integer('RATE_LIMIT_WINDOW_S', 60, 1, 86_400),
      loginLimit: integer('LOGIN_RATE_LIMIT', 10, 1, 1_000_000_000),
    },
    redisUrl,
    ingestMaxBytes: integer('INGEST_MAX_BYTES', 64 * 1024 * 1024, 1024, 2 ** 31 - 1),
    logLevel: logLevel as LogLevelName,
    runMigrations: boolean('RUN_MIGRATIONS', true),
    shutdownDelaySeconds: integer('SHUTDOWN_DELAY_S', 0, 0, 25),
    metrics: readMetrics(get, fail, integer, host),
    http: {
      headersTimeoutSeconds,
      requestTimeoutSeconds,
      keepAliveTimeoutSeconds: integer('HTTP_KEEP_ALIVE_TIMEOUT_S', 72, 1, 3600),
    },
    changeHistory: readChangeHistory(get('CHANGE_HISTORY'), fail),
    findingSlaDays: readFindingSlaDays(get('FINDING_SLA_DAYS'), fail),
    webhooks: {
      allowHttp: boolean('WEBHOOK_ALLOW_HTTP', false),
      allowPrivate: boolean('WEBHOOK_ALLOW_PRIVATE', false),
      concurrency: integer('WEBHOOK_CONCURRENCY', 16, 1, 256),
      timeoutMs: integer('WEBHOOK_TIMEOUT_MS', 10_000, 100, 10_000),
      firstRetryMs: integer('WEBHOOK_FIRST_RETRY_MS', 30_000, 10, 60_000),
      retryForSeconds: integer('WEBHOOK_RETRY_FOR_S', 86_400, 1, 86_400),
      disableAfterSeconds: integer('WEBHOOK_DISABLE_AFTER_S', 259_200, 1, 2_592_000),
      pollMs: integer('WEBHOOK_POLL_MS', 1000, 10, 60_000),
      checkEverySeconds: integer('EVENTS_CHECK_S', 60, 1, 3600),
    },
    oidc: readOidc(get, fail),
    publicUrl: readPublicUrl(get, fail),
  };
}

/** The severities a finding's due date is set for (`none` has none). */
type SlaSeverity = 'critical' | 'high' | 'medium' | 'low';
const SLA_SEVERITIES: readonly SlaSeverity[] = ['critical', 'high', 'medium', 'low'];
const DEFAULT_SLA_DAYS: Record<SlaSeverity, number> = {
  critical: 15,
  high: 30,
  medium: 90,
  low: 180,
};

/**
 * FINDING_SLA_DAYS: `critical=15,high=30,medium=90,low=180` (the default). A severity left out
 * keeps its default; each value is a whole number of days from 1 to 3650.
 */
function readFindingSlaDays(
  value: string | undefined,
  fail: (name: string, why: string) => never,
): Record<SlaSeverity, number> {
  const days = { ...DEFAULT_SLA_DAYS };
  if (value === undefined) return days;
  const given = new Set<string>();
  for (const entry of value.split(',')) {
    const match = /^\s*([a-z]+)\s*=\s*(\d{1,4})\s*$/.exec(entry);
    const severity = match?.[1] as SlaSeverity | undefined;
    if (!match || !SLA_SEVERITIES.includes(severity!)) {
      fail(
        'FINDING_SLA_DAYS',
        `must be severity=days pairs separated by commas (critical, high, medium, low), got "${value}"`,
      );
    }
    if (given.has(severity!)) fail('FINDING_SLA_DAYS', `names ${severity} twice`);
    given.add(severity!);
    const count = Number(match[2]);
    if (count < 1 || count > 3650) {
      fail('FINDING_SLA_DAYS', `${severity} must be from 1 to 3650 days, got ${count}`);
    }
    days[severity!] = count;
  }
  return days;
}

/** CHANGE_HISTORY: `on` (the default) or `off` (bench only). */
function readChangeHistory(
  value: string | undefined,
  fail: (name: string, why: string) => never,
): boolean {
  if (value === undefined || value === 'on') return true;
  if (value === 'off') return false;
  return fail('CHANGE_HISTORY', `must be on or off, got "${value}"`);
}

const MIN_METRICS_TOKEN_LENGTH = 16;

/**
 * Off unless METRICS_PORT is set: a port of its own lets the scraper in while the API's port,
 * the only one the public ingress routes to, never serves metrics.
 */
function readMetrics(
  get: (name: string) => string | undefined,
  fail: (name: string, why: string) => never,
  integer: (name: string, fallback: number, min: number, max: number) => number,
  apiHost: string,
): MetricsConfig | null {
  const token = get('METRICS_TOKEN') ?? null;
  if (get('METRICS_PORT') === undefined) {
    for (const name of ['METRICS_HOST', 'METRICS_TOKEN']) {
      if (get(name) !== undefined) fail(name, 'applies only when METRICS_PORT is set');
    }
    return null;
  }
  const port = integer('METRICS_PORT', 0, 0, 65535);
  if (port !== 0 && port === integer('PORT', 3000, 0, 65535)) {
    fail('METRICS_PORT', 'must differ from PORT: metrics are never served on the API port');
  }
  const host = get('METRICS_HOST') ?? apiHost;
  if (host !== 'localhost' && isIP(host) === 0) {
    fail('METRICS_HOST', `must be an IP address, got "${host}"`);
  }
  // Sent in a header: visible ASCII only.
  if (token !== null && !/^[\x21-\x7e]+$/.test(token)) {
    fail('METRICS_TOKEN', 'must be printable ASCII without spaces');
  }
  if (token !== null && token.length < MIN_METRICS_TOKEN_LENGTH) {
    fail('METRICS_TOKEN', `must be at least ${MIN_METRICS_TOKEN_LENGTH} characters long`);
  }
  return { port, host, token };
}

/**
 * `true` trusts one hop, the ingress in front: the client address is then the last one that
 * ingress appended to X-Forwarded-For, so a client cannot pick its own by sending the header.
 */
function readTrustProxy(
  raw: string | undefined,
  fail: (name: string, why: string) => never,
): false | number | string[] {
  const value = raw?.toLowerCase();
  if (value === undefined || ['false', 'no', '0'].includes(value)) return false;
  if (['true', 'yes'].includes(value)) return 1;
  if (/^\d+$/.test(value)) {
    if (Number(value) > 20) fail('TRUST_PROXY', `must count at most 20 hops, got "${raw}"`);
    return Number(value);
  }
  const proxies = value.split(',').map((entry) => entry.trim());
  for (const proxy of proxies) {
    const [address, prefix, extra] = proxy.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefixOk =
      prefix === undefined ||
      (/^\d+$/.test(prefix) && Number(prefix) <= bits && extra === undefined);
    if (family === 0 || !prefixOk) {
      fail(
        'TRUST_PROXY',
        `must be true, false, a hop count, or proxy addresses / CIDR ranges, got "${proxy}"`,
      );
    }
  }
  return proxies;
}
