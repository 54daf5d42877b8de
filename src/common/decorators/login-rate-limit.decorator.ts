import { SetMetadata } from '@nestjs/common';

export const LOGIN_RATE_LIMIT = 'loginRateLimit';

/** Counts the route against LOGIN_RATE_LIMIT per client address instead of the general limit. */
export const LoginRateLimit = () => SetMetadata(LOGIN_RATE_LIMIT, true);
