// Applies pending migrations and exits: the Kubernetes migration Job (`node dist/migrate.js`),
// for deployments that start the service with RUN_MIGRATIONS=false.
import 'reflect-metadata';
import { readDatabaseConfig } from './config/read-config.js';
import { AppDataSource } from './database/app-data-source.js';
import { databaseOptions } from './database/database-options.js';

// DATABASE_URL only: the migration Job is given nothing else.
const dataSource = new AppDataSource(databaseOptions(readDatabaseConfig()));
try {
  await dataSource.initialize();
  const applied = await dataSource.migrate();
  console.log(
    applied.length === 0
      ? 'Migrations: the schema is up to date'
      : `Migrations applied: ${applied.map((migration) => migration.name).join(', ')}`,
  );
} catch (error) {
  console.error(`Migrations failed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  if (dataSource.isInitialized) await dataSource.destroy();
}
