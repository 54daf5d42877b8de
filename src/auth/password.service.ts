import { Injectable } from '@nestjs/common';
import { argon2id, hash, verify } from 'argon2';

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane.
const ARGON2_OPTIONS = { type: argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

@Injectable()
export class PasswordService {
  // Verified against when the e-mail is unknown, so that both failures take the same time.
  private readonly decoy = hash('decoy-password-never-valid', ARGON2_OPTIONS);

  hash(password: string): Promise<string> {
    return hash(password, ARGON2_OPTIONS);
  }

  /** Checks a password against a stored hash, or against a decoy when there is none. */
  async verify(storedHash: string | null, password: string): Promise<boolean> {
    const matches = await verify(storedHash ?? (await this.decoy), password);
    return storedHash !== null && matches;
  }
}
