import type { QueryRunner } from 'typeorm';
import { addressKey, normalizeAddress } from '../../common/field-rules/identity-values.js';

/** Assets read, and identifier rows written, per statement of the copy. */
const BATCH = 500;

/**
 * Migration AssetIdentity's copy of each asset's `ip` into its `addresses` (the list's first
 * and only entry) and into asset_identifiers, on either database (`placeholder(n)`: the n-th
 * parameter, from 1). The lists are set in one statement (a list of one value is that value); the identifiers are written in batches in id order, and an `ip` that is not
 * in the form the lists hold (an IPv6 one) is rewritten with its list.
 */
export async function copyIpsToAddresses(
  queryRunner: QueryRunner,
  placeholder: (n: number) => string,
): Promise<void> {
  await queryRunner.query(`UPDATE "assets" SET "addresses" = "ip" WHERE "ip" IS NOT NULL`);
  let after = '';
  for (;;) {
    const rows = (await queryRunner.query(
      `SELECT "id", "ip" FROM "assets" WHERE "ip" IS NOT NULL AND "id" > ${placeholder(1)} ORDER BY "id" LIMIT ${BATCH}`,
      [after],
    )) as { id: string; ip: string }[];
    if (rows.length === 0) return;
    after = rows[rows.length - 1].id;
    const identifiers: string[] = [];
    for (const { id, ip } of rows) {
      const address = normalizeAddress(ip) ?? ip;
      if (address !== ip)
        await queryRunner.query(
          `UPDATE "assets" SET "ip" = ${placeholder(1)}, "addresses" = ${placeholder(2)} WHERE "id" = ${placeholder(3)}`,
          [address, address, id],
        );
      const key = addressKey(address);
      if (key !== null) identifiers.push(id, 'ip', key);
    }
    if (identifiers.length > 0) {
      const values = [];
      for (let n = 1; n <= identifiers.length; n += 3)
        values.push(`(${placeholder(n)}, ${placeholder(n + 1)}, ${placeholder(n + 2)})`);
      await queryRunner.query(
        `INSERT INTO "asset_identifiers" ("asset_id", "kind", "value") VALUES ${values.join(', ')}`,
        identifiers,
      );
    }
  }
}
