import { MigrationInterface, QueryRunner } from 'typeorm';
import { dropWhatTheSchemaBeforeScopesCannotHold } from '../access-rollback.js';

// Generated, then edited: the keys already made are given every scope before the column
// becomes NOT NULL.

export class ServiceAccountsScopedKeys1795916957483 implements MigrationInterface {
  name = 'ServiceAccountsScopedKeys1795916957483';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "users" ADD "kind" character varying(16) NOT NULL DEFAULT 'person'`,
    );
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "last_used_ip" character varying(64)`);
    // Keys made before scopes hold all four: their user's role alone bounds them, as before.
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "scopes" text`);
    await queryRunner.query(`UPDATE "api_keys" SET "scopes" = '["read","write","ingest","admin"]'`);
    await queryRunner.query(`ALTER TABLE "api_keys" ALTER COLUMN "scopes" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "sources" text`);
    await queryRunner.query(`ALTER TABLE "api_keys" ADD "allowed_cidrs" text`);
    await queryRunner.query(`ALTER TABLE "users" ALTER COLUMN "email" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "users" ALTER COLUMN "password_hash" DROP NOT NULL`);
    await queryRunner.query(`ALTER TABLE "change_sets" ALTER COLUMN "actor_email" DROP NOT NULL`);
    await queryRunner.query(
      `ALTER TABLE "ingestion_runs" ALTER COLUMN "actor_email" DROP NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await dropWhatTheSchemaBeforeScopesCannotHold(queryRunner);
    await queryRunner.query(`ALTER TABLE "ingestion_runs" ALTER COLUMN "actor_email" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "change_sets" ALTER COLUMN "actor_email" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "users" ALTER COLUMN "password_hash" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "users" ALTER COLUMN "email" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "allowed_cidrs"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "sources"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "scopes"`);
    await queryRunner.query(`ALTER TABLE "api_keys" DROP COLUMN "last_used_ip"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "kind"`);
  }
}
