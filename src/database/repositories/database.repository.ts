import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { AppDataSource } from '../app-data-source.js';

/** The database as a whole, rather than the tables of one aggregate. */
@Injectable()
export class DatabaseRepository {
  constructor(@InjectDataSource() private readonly dataSource: AppDataSource) {}

  /** Resolves once the database answers a trivial query; rejects if it is closed or fails. */
  async ping(): Promise<void> {
    if (!this.dataSource.isInitialized) throw new Error('closed');
    await this.dataSource.query('SELECT 1');
  }
}
