import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig, loadDatabaseConfig } from './app-config.js';

const fails = (env: Record<string, string>, variable: string) => {
  expect(() => loadConfig(env)).toThrow(ConfigError);
  expect(() => loadConfig(env)).toThrow(new RegExp(`^${variable} `));
};

describe('loadConfig', () => {
  it('runs with no variables at all, on the contract defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      production: false,
      port: 3000,
      host: '0.0.0.0',
      database: { kind: 'sqlite', file: './data/assetmap.sqlite' },
      admin: { email: 'admin@localhost', password: null },
      corsOrigins: [],
      tls: null,
      trustProxy: false,
      rateLimit: { limit: 1000, windowSeconds: 60, loginLimit: 10 },
      redisUrl: null,
      ingestMaxBytes: 67108864,
      logLevel: 'info',
      runMigrations: true,
      shutdownDelaySeconds: 0,
      http: { headersTimeoutSeconds: 20, requestTimeoutSeconds: 600, keepAliveTimeoutSeconds: 72 },
      changeHistory: true,
    });
    expect(config.jwt.generated).toBe(true);
    expect(config.jwt.secret.length).toBeGreaterThanOrEqual(32);
    expect(config.jwt.expiresInSeconds).toBe(8 * 3600);
    expect(config.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('generates a different secret per process start', () => {
    expect(loadConfig({}).jwt.secret).not.toBe(loadConfig({}).jwt.secret);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://app:secret@db:5432/assets',
      JWT_SECRET: 's'.repeat(40),
      JWT_EXPIRES_IN: '30m',
      ADMIN_EMAIL: 'Root@Example.com',
      ADMIN_PASSWORD: 'a-long-admin-password',
      CORS_ORIGINS: 'https://ui.example.com, http://localhost:5173',
      TLS_CERT_FILE: '/tls/cert.pem',
      TLS_KEY_FILE: '/tls/key.pem',
      TRUST_PROXY: 'true',
      RATE_LIMIT: '50',
      RATE_LIMIT_WINDOW_S: '10',
      LOGIN_RATE_LIMIT: '5',
      REDIS_URL: 'redis://127.0.0.1:6379',
      INGEST_MAX_BYTES: '1048576',
      LOG_LEVEL: 'debug',
      RUN_MIGRATIONS: 'false',
      SHUTDOWN_DELAY_S: '5',
      HTTP_HEADERS_TIMEOUT_S: '10',
      HTTP_REQUEST_TIMEOUT_S: '1800',
      HTTP_KEEP_ALIVE_TIMEOUT_S: '65',
    });
    expect(config).toMatchObject({
      production: true,
      port: 8080,
      host: '127.0.0.1',
      database: { kind: 'postgres', url: 'postgres://app:secret@db:5432/assets' },
      jwt: { secret: 's'.repeat(40), generated: false, expiresInSeconds: 1800 },
      admin: { email: 'root@example.com', password: 'a-long-admin-password' },
      corsOrigins: ['https://ui.example.com', 'http://localhost:5173'],
      tls: { certFile: '/tls/cert.pem', keyFile: '/tls/key.pem' },
      trustProxy: 1,
      rateLimit: { limit: 50, windowSeconds: 10, loginLimit: 5 },
      redisUrl: 'redis://127.0.0.1:6379',
      ingestMaxBytes: 1048576,
      logLevel: 'debug',
      runMigrations: false,
      shutdownDelaySeconds: 5,
      http: { headersTimeoutSeconds: 10, requestTimeoutSeconds: 1800, keepAliveTimeoutSeconds: 65 },
      changeHistory: true,
    });
  });

  it('raises the default request timeout to a longer headers timeout', () => {
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_S: '900' }).http.requestTimeoutSeconds).toBe(900);
  });

  it.each([
    ['false', false],
    ['0', false],
    ['true', 1],
    ['1', 1],
    ['2', 2],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, fd00::/8', ['10.0.0.0/8', 'fd00::/8']],
  ])('reads TRUST_PROXY=%s as %p', (raw, expected) => {
    expect(loadConfig({ TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it('takes sqlite::memory: and sqlite:<file>', () => {
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).database).toEqual({
      kind: 'sqlite',
      file: ':memory:',
    });
    expect(loadConfig({ DATABASE_URL: 'sqlite:/var/lib/am.db' }).database).toEqual({
      kind: 'sqlite',
      file: '/var/lib/am.db',
    });
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', JWT_SECRET: '' }).port).toBe(3000);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ HOST: 'not a host' }, 'HOST'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL'],
    [{ NODE_ENV: 'production' }, 'JWT_SECRET'],
    [{ NODE_ENV: 'production', JWT_SECRET: 'too-short' }, 'JWT_SECRET'],
    [{ JWT_SECRET: 'too-short' }, 'JWT_SECRET'],
    [{ JWT_EXPIRES_IN: 'forever' }, 'JWT_EXPIRES_IN'],
    [{ JWT_EXPIRES_IN: '0' }, 'JWT_EXPIRES_IN'],
    [{ ADMIN_EMAIL: 'nobody' }, 'ADMIN_EMAIL'],
    [{ ADMIN_PASSWORD: 'short' }, 'ADMIN_PASSWORD'],
    [{ CORS_ORIGINS: 'https://ui.example.com/path' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: '*' }, 'CORS_ORIGINS'],
    [{ TLS_CERT_FILE: '/tls/cert.pem' }, 'TLS_KEY_FILE'],
    [{ TLS_KEY_FILE: '/tls/key.pem' }, 'TLS_CERT_FILE'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '100' }, 'TRUST_PROXY'],
    [{ RUN_MIGRATIONS: 'sometimes' }, 'RUN_MIGRATIONS'],
    [{ SHUTDOWN_DELAY_S: '60' }, 'SHUTDOWN_DELAY_S'],
    [{ RATE_LIMIT: '0' }, 'RATE_LIMIT'],
    [{ RATE_LIMIT_WINDOW_S: '-1' }, 'RATE_LIMIT_WINDOW_S'],
    [{ LOGIN_RATE_LIMIT: '1.5' }, 'LOGIN_RATE_LIMIT'],
    [{ REDIS_URL: 'http://cache' }, 'REDIS_URL'],
    [{ INGEST_MAX_BYTES: 'lots' }, 'INGEST_MAX_BYTES'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ CHANGE_HISTORY: 'no' }, 'CHANGE_HISTORY'],
    [{ HTTP_HEADERS_TIMEOUT_S: '0' }, 'HTTP_HEADERS_TIMEOUT_S'],
    [{ HTTP_REQUEST_TIMEOUT_S: '2m' }, 'HTTP_REQUEST_TIMEOUT_S'],
    [{ HTTP_HEADERS_TIMEOUT_S: '30', HTTP_REQUEST_TIMEOUT_S: '10' }, 'HTTP_REQUEST_TIMEOUT_S'],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_S: '0' }, 'HTTP_KEEP_ALIVE_TIMEOUT_S'],
  ])('refuses %p, naming %s', (env, variable) => {
    fails(env, variable);
  });
});

describe('loadConfig: metrics', () => {
  it('serves no metrics unless METRICS_PORT is set', () => {
    expect(loadConfig({}).metrics).toBeNull();
  });

  it('serves them on their own port, bound where the API is unless told', () => {
    expect(loadConfig({ HOST: '127.0.0.1', METRICS_PORT: '9464' }).metrics).toEqual({
      port: 9464,
      host: '127.0.0.1',
      token: null,
    });
    expect(
      loadConfig({ METRICS_PORT: '0', METRICS_HOST: '10.1.2.3', METRICS_TOKEN: 't'.repeat(16) })
        .metrics,
    ).toEqual({ port: 0, host: '10.1.2.3', token: 't'.repeat(16) });
  });

  it.each([
    [{ METRICS_PORT: 'x' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '3000' }, 'METRICS_PORT'],
    [{ PORT: '8080', METRICS_PORT: '8080' }, 'METRICS_PORT'],
    [{ METRICS_PORT: '9464', METRICS_HOST: 'anywhere' }, 'METRICS_HOST'],
    [{ METRICS_PORT: '9464', METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ METRICS_PORT: '9464', METRICS_TOKEN: 'with a space in it!' }, 'METRICS_TOKEN'],
    [{ METRICS_TOKEN: 't'.repeat(16) }, 'METRICS_TOKEN'],
    [{ METRICS_HOST: '127.0.0.1' }, 'METRICS_HOST'],
  ])('refuses %p, naming %s', (env, variable) => {
    fails(env, variable);
  });
});

describe('loadDatabaseConfig', () => {
  it('reads DATABASE_URL alone: no JWT_SECRET needed in production', () => {
    expect(loadDatabaseConfig({ NODE_ENV: 'production' })).toEqual({
      kind: 'sqlite',
      file: './data/assetmap.sqlite',
    });
    const url = 'postgres://svc@db:5432/assets';
    expect(loadDatabaseConfig({ NODE_ENV: 'production', DATABASE_URL: url })).toEqual({
      kind: 'postgres',
      url,
    });
  });

  it.each(['mysql://localhost/db', 'sqlite:', 'postgres://a b/x'])('refuses %p', (url) => {
    expect(() => loadDatabaseConfig({ DATABASE_URL: url })).toThrow(/^DATABASE_URL /);
  });
});
