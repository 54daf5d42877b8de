// Baseline for the HTTP figures: a bare Fastify server answering the same JSON, running the
// same SQL through the raw driver. Usage: node bench/baseline-server.mjs <port, 0 for any> <database url>;
// sends its port to the parent process once listening.
import Fastify from 'fastify';
import { listAssets, openRaw } from './lib.mjs';

const [port, url] = process.argv.slice(2);
const db = openRaw(url);
const started = Date.now();
const app = Fastify();
app.get('/api/health', async () => ({
  status: 'ok',
  message: 'Asset Map is running',
  version: '0.0.0',
  uptime: Math.floor((Date.now() - started) / 1000),
}));
app.get('/api/assets', async (request) => {
  const { limit, offset, search } = request.query;
  return listAssets(db, { limit: Number(limit ?? 100), offset: Number(offset ?? 0), search });
});
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.send?.({ port: app.server.address().port });
