import { existsSync } from 'node:fs';
import { ConfigError, loadConfig, type AppConfig } from './config/app-config.js';

function readConfig(): AppConfig {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
}

const config = readConfig();
if (config.jwt.generated) {
  console.warn(
    'JWT_SECRET is not set: using a random secret, so session tokens end with this process',
  );
}
// Loaded only once the configuration is known to be good.
const { createApp } = await import('./app.factory.js');
const app = await createApp(config);
await app.listen(config.port, config.host);
console.log(`Asset Map ${config.version} listening on ${await app.getUrl()}`);
