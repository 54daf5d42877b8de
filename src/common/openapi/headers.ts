import type { HeadersObject } from '@nestjs/swagger';

const integer = (description: string, minimum = 0) => ({
  description,
  schema: { type: 'integer' as const, minimum },
});

/** Sent with every answer of an authenticated route past authentication (RateLimitGuard). */
export const RATE_LIMIT_HEADERS: HeadersObject = {
  'X-RateLimit-Limit': integer('Requests allowed per window (RATE_LIMIT)'),
  'X-RateLimit-Remaining': integer('Requests left in the current window'),
  'X-RateLimit-Reset': integer('Seconds until the current window ends'),
};

/** The same for login, which counts against its own budget per client address. */
export const LOGIN_RATE_LIMIT_HEADERS: HeadersObject = {
  'X-RateLimit-Limit-login': integer('Login attempts allowed per window (LOGIN_RATE_LIMIT)'),
  'X-RateLimit-Remaining-login': integer('Login attempts left in the current window'),
  'X-RateLimit-Reset-login': integer('Seconds until the current window ends'),
};

/** Sent with a 429. */
export const RETRY_AFTER_HEADER: HeadersObject = {
  'Retry-After': integer('Seconds to wait before retrying', 1),
};

/** Sent by the list routes that answer a bare array. */
export const TOTAL_COUNT_HEADER: HeadersObject = {
  'X-Total-Count': integer('How many items match, before paging'),
};

/** Sent by a list that pages by cursor, when another page follows. */
export const NEXT_LINK_HEADER: HeadersObject = {
  Link: {
    description:
      'The next page, as an RFC 8288 link relative to the API\'s origin: `</api/assets?limit=100&after=...>; rel="next"`. Absent on the last page',
    schema: { type: 'string' },
  },
};

/** Sent with every answer (src/common/logging/request-id.ts). */
export const REQUEST_ID_HEADER: HeadersObject = {
  'X-Request-Id': {
    description:
      "The request's id, also in its log line: the caller's own X-Request-Id when it is 8 to 128 letters, digits, '.', ':', '_' or '-', else a new UUID",
    schema: { type: 'string' },
  },
};
