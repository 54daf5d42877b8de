import { MigrationInterface, QueryRunner } from 'typeorm';

export class OidcSubject1795917021485 implements MigrationInterface {
  name = 'OidcSubject1795917021485';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" ADD "oidc_subject" character varying(255)`);
    await queryRunner.query(
      `ALTER TABLE "users" ADD CONSTRAINT "UQ_7eee74144a9e60905a19d0203ca" UNIQUE ("oidc_subject")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "users" DROP CONSTRAINT "UQ_7eee74144a9e60905a19d0203ca"`);
    await queryRunner.query(`ALTER TABLE "users" DROP COLUMN "oidc_subject"`);
  }
}
