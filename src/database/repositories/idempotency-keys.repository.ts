import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LessThan, type Repository } from 'typeorm';
import { AppDataSource } from '../app-data-source.js';
import { IdempotencyKey } from '../entities/idempotency-key.entity.js';
import type { IngestSql } from '../ingest-sql.js';
import { boundValue } from '../tables/column-table.js';
import { IDEMPOTENCY_KEY_COLUMNS } from '../tables/idempotency-keys.table.js';

const { caller, key, runId, status, answer, expiresAt } = IDEMPOTENCY_KEY_COLUMNS;

/** The answer kept on the key its run holds. */
const KEEP = `UPDATE idempotency_keys SET "${status.name}" = ?, "${answer.name}" = ?, "${expiresAt.name}" = ? WHERE "${caller.name}" = ? AND "${key.name}" = ? AND "${runId.name}" = ?`;

/** A key as one run holds it. */
export type HeldKey = Pick<IdempotencyKey, 'caller' | 'key' | 'runId'>;

/** What a run that takes a key over writes on it. */
export type KeyClaimColumns = Pick<
  IdempotencyKey,
  'bodyHash' | 'runId' | 'status' | 'answer' | 'createdAt' | 'expiresAt'
>;

/**
 * Idempotency keys and their kept answers. Claimed, kept and freed on the data source's
 * connection, outside InventoryWriter (no write to the inventory), but for the answer an
 * ingestion keeps in its own transaction (keepWithin).
 */
@Injectable()
export class IdempotencyKeysRepository {
  private readonly keys: Repository<IdempotencyKey>;

  constructor(@InjectDataSource() dataSource: AppDataSource) {
    this.keys = dataSource.getRepository(IdempotencyKey);
  }

  /** Inserts a key just claimed (no answer yet); nothing when its caller's key is there. */
  async insertIfAbsent(row: Omit<IdempotencyKey, 'expiresAt'>): Promise<void> {
    await this.keys.createQueryBuilder().insert().values(row).orIgnore().execute();
  }

  find(caller: string, key: string): Promise<IdempotencyKey | null> {
    return this.keys.findOneBy({ caller, key });
  }

  /** Writes `claim` over the key while `held` still holds it: whether it did. */
  async takeOver(held: HeldKey, claim: KeyClaimColumns): Promise<boolean> {
    const taken = await this.keys.update(
      { caller: held.caller, key: held.key, runId: held.runId },
      claim,
    );
    return Boolean(taken.affected);
  }

  /** Keeps an answer on the key `held` holds, until `expiresAt`. */
  async keep(held: HeldKey, status: number, answer: string, expiresAt: Date): Promise<void> {
    await this.keys.update(
      { caller: held.caller, key: held.key, runId: held.runId },
      { status, answer, expiresAt },
    );
  }

  /** The same, inside an ingestion's transaction (`sql`), so that it lands with the ingestion. */
  async keepWithin(
    sql: IngestSql,
    held: HeldKey,
    status: number,
    answer: string,
    expiresAt: Date,
  ): Promise<void> {
    await sql.run(KEEP, [
      status,
      answer,
      boundValue(sql, IDEMPOTENCY_KEY_COLUMNS.expiresAt, expiresAt),
      held.caller,
      held.key,
      held.runId,
    ]);
  }

  /** Deletes the key `held` holds. */
  async delete(held: HeldKey): Promise<void> {
    await this.keys.delete({ caller: held.caller, key: held.key, runId: held.runId });
  }

  /** Deletes the keys whose answer expired. */
  async deleteExpired(): Promise<void> {
    await this.keys.delete({ expiresAt: LessThan(new Date()) });
  }
}
