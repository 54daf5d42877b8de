import { existsSync } from 'node:fs';
import {
  ConfigError,
  loadConfig,
  loadDatabaseConfig,
  type AppConfig,
  type DatabaseConfig,
} from './app-config.js';

/**
 * What `load` makes of the environment, and of ./.env when there is one. A bad variable ends
 * the process with one line naming it.
 */
function fromEnvironment<T>(load: (env: NodeJS.ProcessEnv) => T): T {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return load(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
}

/** The configuration of an entry point that serves or reads the store (service, backup). */
export function readConfig(): AppConfig {
  return fromEnvironment(loadConfig);
}

/** The database alone: the migration entry point needs nothing else. */
export function readDatabaseConfig(): DatabaseConfig {
  return fromEnvironment(loadDatabaseConfig);
}
