import { existsSync } from 'node:fs';
import { ConfigError, loadConfig, type AppConfig } from './app-config.js';

/**
 * The configuration of an entry point (service, migrations, backup): from the environment, and
 * from ./.env when there is one. A bad variable ends the process with one line naming it.
 */
export function readConfig(): AppConfig {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
}
