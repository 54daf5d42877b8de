/** Every API key starts with this, so that a key is told from a session token (a JWT) at a glance. */
export const API_KEY_PREFIX = 'amk_';

/** Passport strategy names. */
export const JWT_STRATEGY = 'jwt';
export const API_KEY_STRATEGY = 'api-key';
