import { applyDecorators } from '@nestjs/common';
import { ApiDefaultResponse, ApiFoundResponse } from '@nestjs/swagger';
import {
  ApiErrorResponses,
  type ErrorCase,
  type ErrorStatus,
} from './api-error-responses.decorator.js';
import { ErrorResponseDto } from './error-response.dto.js';

/**
 * A route a browser is sent to, which answers a redirect (302, where to in `Location`) rather
 * than JSON, and the errors it may answer instead. Such a route has no 2XX answer: any status
 * not listed is an unexpected failure, with the usual `{"error": "..."}` body.
 */
export function ApiBrowserRedirect(to: string, ...errors: (ErrorStatus | ErrorCase)[]) {
  return applyDecorators(
    ApiFoundResponse({
      description: `A redirect ${to}`,
      headers: { Location: { description: `The address ${to}`, schema: { type: 'string' } } },
    }),
    ApiErrorResponses(...errors),
    ApiDefaultResponse({
      description: 'Any other status: an unexpected failure',
      type: ErrorResponseDto,
    }),
  );
}
