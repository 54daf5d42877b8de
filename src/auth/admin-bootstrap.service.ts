import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ConflictError } from '../common/errors/conflict.error.js';
import { Role } from '../common/role.js';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { isUniqueViolation } from '../database/unique-violation.js';
import { UsersService } from './users.service.js';

/** Creates the first administrator when the users table is empty at start-up. */
@Injectable()
export class AdminBootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if ((await this.users.count()) > 0) return;
    const { email } = this.config.admin;
    const password = this.config.admin.password ?? randomBytes(18).toString('base64url');
    try {
      await this.users.create(null, { email, name: 'Administrator', password, role: Role.Admin });
    } catch (error) {
      // Another replica starting at the same moment created it first.
      if (error instanceof ConflictError || isUniqueViolation(error)) return;
      throw error;
    }
    if (this.config.admin.password) {
      this.logger.log(`Created the administrator ${email} with the password from ADMIN_PASSWORD`);
    } else {
      // Shown this once: it is stored only as a hash.
      this.logger.warn(
        `Created the administrator ${email} with the generated password: ${password} ` +
          '(change it with POST /api/auth/password)',
      );
    }
  }
}
