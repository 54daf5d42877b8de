import { createHmac } from 'node:crypto';

const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Builds a JWT by hand, so that tests can forge the tokens an attacker would. */
export function forgeJwt(payload: object, options: { secret?: string; alg?: string } = {}): string {
  const alg = options.alg ?? 'HS256';
  const head = `${encode({ alg, typ: 'JWT' })}.${encode(payload)}`;
  if (alg === 'none') return `${head}.`;
  const signature = createHmac('sha256', options.secret ?? 'x'.repeat(32))
    .update(head)
    .digest('base64url');
  return `${head}.${signature}`;
}

export function decodeJwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<
    string,
    unknown
  >;
}
