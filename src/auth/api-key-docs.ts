import type { ErrorCase } from '../common/openapi/api-error-responses.decorator.js';

// What the routes of a user's own keys and those of an admin over any user's keys document
// alike.

export const API_KEY_CREATE_DESCRIPTION =
  "The key acts with its user's current role, within its `scopes`, `sources` and `allowedCidrs`. Its secret `key` is in this answer only; only its hash is stored.";

export const API_KEY_ROTATE_DESCRIPTION =
  'A new key (new `id`, its `key` in this answer only) with the same name, scopes, sources, addresses and expiry. The old key keeps working `graceSeconds` more (never past its own expiry), then stops: time for whoever holds it to take the new one.';

export const RESTRICTED_KEY_REFUSED: ErrorCase = {
  status: 403,
  description:
    "Called with an API key narrower than its user's role (fewer scopes, sources or allowedCidrs), or one used from outside its allowedCidrs",
};
