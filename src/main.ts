import { existsSync } from 'node:fs';
import { createApp } from './app.factory.js';
import { ConfigError, loadConfig, type AppConfig } from './config/app-config.js';

async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Configuration error: ${error.message}`);
    process.exit(1);
  }
  if (config.jwt.generated) {
    console.warn(
      'JWT_SECRET is not set: using a random secret, so session tokens end with this process',
    );
  }
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  console.log(`Asset Map ${config.version} listening on ${await app.getUrl()}`);
}

await main();
