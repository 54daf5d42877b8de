import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { PassportModule } from '@nestjs/passport';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { AdminBootstrapService } from './admin-bootstrap.service.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysService } from './api-keys.service.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { OidcController } from './oidc/oidc.controller.js';
import { OidcService } from './oidc/oidc.service.js';
import { PasswordService } from './password.service.js';
import { ApiKeyStrategy } from './strategies/api-key.strategy.js';
import { JwtStrategy } from './strategies/jwt.strategy.js';
import { UserApiKeysController } from './user-api-keys.controller.js';
import { UsersController } from './users.controller.js';
import { UsersService } from './users.service.js';

@Module({
  imports: [
    PassportModule.register({ session: false }),
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        secret: config.jwt.secret,
        signOptions: { algorithm: 'HS256', expiresIn: config.jwt.expiresInSeconds },
        verifyOptions: { algorithms: ['HS256'] },
      }),
    }),
  ],
  controllers: [
    AuthController,
    ApiKeysController,
    UsersController,
    UserApiKeysController,
    OidcController,
  ],
  providers: [
    AuthService,
    UsersService,
    ApiKeysService,
    PasswordService,
    JwtStrategy,
    ApiKeyStrategy,
    AdminBootstrapService,
    OidcService,
  ],
  exports: [UsersService],
})
export class AuthModule {}
