// Baseline for the HTTP figures: a bare Fastify server answering the same JSON, running the
// same SQL through the raw driver. Usage: node bench/baseline-server.mjs <port, 0 for any> <database url>;
// sends its port to the parent process once listening.
import Fastify from 'fastify';
import { graphQueries, listAssets, openRaw } from './lib.mjs';

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
// The graph routes' walks, from the built service's SQL (bench/run.mjs builds it first).
const graph = graphQueries(
  db,
  await import('../dist/database/repositories/relations/graph-sql.js'),
  await import('../dist/graph/graph-walks.js'),
  // Only its SQL is asked for: no data source, no file behind it.
  db.kind === 'postgres'
    ? new (await import('../dist/database/postgres/postgres.dialect.js')).PostgresDialect({})
    : new (await import('../dist/database/sqlite/sqlite.dialect.js')).SqliteDialect({
        options: {},
      }),
);
app.get('/api/assets/:id/graph', async (request) =>
  graph.neighbourhood(request.params.id, Number(request.query.depth ?? 1)),
);
app.get('/api/graph/path', async (request) => {
  const { from, to, maxDepth } = request.query;
  return graph.path(from, to, Number(maxDepth ?? 6));
});
app.get('/api/assets/:id/reachable', async (request) =>
  graph.reachable(
    request.params.id,
    Number(request.query.maxDepth ?? 6),
    Number(request.query.port),
  ),
);
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.send?.({ port: app.server.address().port });
