import { readConfig } from './config/read-config.js';

const config = readConfig();
// The rest is loaded only once the configuration is known to be good.
const { Logger } = await import('@nestjs/common');
const { createApp } = await import('./app.factory.js');
const { shutDownOnSignals } = await import('./health/graceful-shutdown.js');

const app = await createApp(config);
const logger = new Logger('Main');
if (config.jwt.generated) {
  logger.warn(
    'JWT_SECRET is not set: using a random secret, so session tokens end with this process',
  );
}
shutDownOnSignals(app, config.shutdownDelaySeconds * 1000);
await app.listen(config.port, config.host);
logger.log(`Asset Map ${config.version} listening on ${await app.getUrl()}`);
