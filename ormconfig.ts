// The DataSource the TypeORM CLI uses (npm run migration:generate / migration:run).
// DATABASE_URL picks the database, and so the migration set, exactly as for the service.
import 'reflect-metadata';
import { loadConfig } from './src/config/app-config.js';
import { AppDataSource } from './src/database/app-data-source.js';
import { databaseOptions } from './src/database/database-options.js';

export default new AppDataSource(databaseOptions(loadConfig(process.env).database));
