import { SetMetadata } from '@nestjs/common';
import type { Scope } from '../scope.js';

export const KEY_SCOPE = 'keyScope';

/**
 * What an API key needs on a route when its method and role do not say it (KeyRulesGuard):
 * `anyOf` one of these scopes, none at all (an empty list), or `unrestricted`: a key no
 * narrower than its user's role.
 */
export type KeyScopeRule = { anyOf: readonly Scope[] } | 'unrestricted';

/** The key needs one of `scopes`; none at all when none is given. */
export const KeyScope = (...scopes: Scope[]) =>
  SetMetadata<string, KeyScopeRule>(KEY_SCOPE, { anyOf: scopes });

/** A route that makes or changes credentials: refused to a key narrower than its user's role. */
export const UnrestrictedKey = () => SetMetadata<string, KeyScopeRule>(KEY_SCOPE, 'unrestricted');
