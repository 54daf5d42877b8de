import type { DataSource } from 'typeorm';

/**
 * How many statements `dataSource` is sent while `run` runs: the fewest over `tries` runs. The
 * service's own timers (the webhook dispatcher's poll, the events check) send theirs whenever
 * they fall due, which may be inside a run and only ever adds to its count.
 */
export async function fewestQueries(
  dataSource: DataSource,
  run: () => Promise<unknown>,
  tries = 3,
): Promise<number> {
  const logger = dataSource.logger;
  const original = logger.logQuery.bind(logger);
  let queries = 0;
  logger.logQuery = () => {
    queries += 1;
  };
  Object.assign(dataSource.options, { logging: ['query'] });
  try {
    let fewest = Infinity;
    for (let i = 0; i < tries; i++) {
      queries = 0;
      await run();
      fewest = Math.min(fewest, queries);
    }
    return fewest;
  } finally {
    logger.logQuery = original;
    Object.assign(dataSource.options, { logging: false });
  }
}
