import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse } from '@nestjs/swagger';
import { ErrorResponseDto } from './error-response.dto.js';
import { RETRY_AFTER_HEADER } from './headers.js';

/** The name of the security scheme declared in openapi.ts. */
export const BEARER_AUTH = 'bearer';

/** The error statuses the service answers (CONTRACT section 2, and readiness). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 503;

/** A status with a description of the route's own cases, instead of the generic one. */
export interface ErrorCase {
  status: ErrorStatus;
  description: string;
}

const DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Invalid body, query or path value, unknown properties included; the message names each field',
  401: 'Missing, malformed, expired or revoked session token or API key',
  403: 'Authenticated, but the role does not allow the action',
  404: 'No such resource',
  409: 'Conflict with the stored state',
  413: 'Body larger than the limit (1 MiB)',
  415: 'Body that is not application/json',
  422: 'The request contradicts an earlier one it refers to',
  429: 'Rate limit exceeded; retry after Retry-After seconds',
  503: 'Not ready: the database does not answer',
};

/**
 * Documents error answers, each with the `{"error": "..."}` body, a 429 also with its
 * `Retry-After` header. Give a status alone for its generic description, or an ErrorCase.
 */
export function ApiErrorResponses(...errors: (ErrorStatus | ErrorCase)[]) {
  return applyDecorators(
    ...errors.map((error) => {
      const { status, description } =
        typeof error === 'number' ? { status: error, description: DESCRIPTIONS[error] } : error;
      return ApiResponse({
        status,
        description,
        type: ErrorResponseDto,
        ...(status === 429 && { headers: RETRY_AFTER_HEADER }),
      });
    }),
  );
}

/**
 * A route behind AccessGuard's authentication: the bearer scheme, 401 without valid credentials
 * and 429 over the rate limit. On a controller, or on each non-public route of a controller.
 */
export function ApiAuthenticated() {
  return applyDecorators(ApiBearerAuth(BEARER_AUTH), ApiErrorResponses(401, 429));
}

/**
 * A route that takes a JSON body: 400 for an invalid one (`badRequest` describes the route's
 * own cases), 413 over 1 MiB, 415 for another content type.
 */
export function ApiJsonBodyErrors(badRequest = DESCRIPTIONS[400]) {
  return ApiErrorResponses({ status: 400, description: badRequest }, 413, 415);
}
