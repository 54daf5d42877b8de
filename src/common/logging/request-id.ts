import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

// What an ingress or a client may hand us as its own request id; anything else is replaced.
const ACCEPTED_ID = /^[\w.:-]{8,128}$/;

/** The request id: the caller's X-Request-Id when it is a sane token, else a new UUID. */
export function requestIdOf(request: { headers: IncomingHttpHeaders }): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && ACCEPTED_ID.test(given) ? given : randomUUID();
}
