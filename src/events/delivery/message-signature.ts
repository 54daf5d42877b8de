import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** A new webhook secret: `whsec_` and the base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** Signs a message: its `webhook-signature`. */
export type MessageSigner = (id: string, timestamp: number, body: string) => string;

/**
 * The Standard Webhooks signatures of a secret's messages: `v1,` and the base64 of HMAC-SHA256
 * over `<id>.<timestamp>.<body>`, keyed by the secret's base64 part (decoded once, for all).
 */
export function messageSigner(secret: string): MessageSigner {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  return (id, timestamp, body) =>
    `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
