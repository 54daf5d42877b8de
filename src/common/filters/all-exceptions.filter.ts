import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type DomainErrorKind } from '../errors/domain-error.js';
import { alternatives } from '../field-rules/field-rule.js';

/** An error answer: its status and the sentence of its `{"error"}` body. */
export interface ErrorDescription {
  status: number;
  message: string;
}

/** The one mapping of the domain's errors onto HTTP: the status each kind is answered with. */
export const DOMAIN_ERROR_STATUS: Readonly<Record<DomainErrorKind, number>> = {
  invalid: 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  unprocessable: 422,
  unavailable: 503,
};

/** Errors Fastify raises itself (body parsing, content type, size) carry a 4xx statusCode. */
function isClientError(error: unknown): error is Error & { statusCode: number } {
  const status =
    error instanceof Error ? (error as { statusCode?: unknown }).statusCode : undefined;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/** Route config naming the media types a route takes besides JSON (`@RouteConfig`). */
export interface MediaTypesConfig {
  mediaTypes?: readonly string[];
}

/** "application/json", or the route's own list: "application/json, text/xml or text/csv". */
function acceptedMediaTypes(request: FastifyRequest): string {
  const types = (request.routeOptions.config as MediaTypesConfig | undefined)?.mediaTypes ?? [
    'application/json',
  ];
  return alternatives(types);
}

// Fastify's own answers for these say too little to act on, or the wrong thing.
const FASTIFY_ERRORS: Record<string, (request: FastifyRequest) => ErrorDescription> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (request) => ({
    status: 415,
    message: `Content-Type must be ${acceptedMediaTypes(request)}, got ${request.headers['content-type'] ?? 'none'}`,
  }),
  FST_ERR_CTP_BODY_TOO_LARGE: (request) => ({
    status: 413,
    message: `Request body is larger than the limit of ${request.routeOptions.bodyLimit} bytes`,
  }),
  // An id longer than the router takes cannot name anything: unknown, like any other id.
  FST_ERR_MAX_PARAM_LENGTH: () => ({ status: 404, message: 'No resource has so long an id' }),
};

function httpExceptionMessage(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}

/**
 * The answer an expected error gets (a domain error, an HttpException of the HTTP edge, or a
 * client error Fastify raised), or null for a defect, which is answered 500.
 */
function describeKnownError(exception: unknown, request: FastifyRequest): ErrorDescription | null {
  // Nest hands Fastify's own errors over wrapped in an HttpException, the original as cause.
  const original = exception instanceof HttpException ? exception.cause : exception;
  const known = FASTIFY_ERRORS[(original as { code?: string } | undefined)?.code ?? ''];
  if (known) return known(request);
  if (exception instanceof DomainError) {
    return { status: DOMAIN_ERROR_STATUS[exception.kind], message: exception.message };
  }
  if (exception instanceof HttpException) {
    return { status: exception.getStatus(), message: httpExceptionMessage(exception) };
  }
  if (isClientError(exception)) {
    return { status: exception.statusCode, message: exception.message };
  }
  return null;
}

/** The status `exception` is answered with, without its message: 500 for a defect. */
export function statusOf(exception: unknown): number {
  if (exception instanceof DomainError) return DOMAIN_ERROR_STATUS[exception.kind];
  if (exception instanceof HttpException) return exception.getStatus();
  return isClientError(exception) ? exception.statusCode : 500;
}

/** What a defect is answered: nothing of it, only how to find it in the log. */
function defectAnswer(request: FastifyRequest): ErrorDescription {
  return { status: 500, message: `Internal server error (request ${request.id})` };
}

/** The answer `exception` gets from AllExceptionsFilter, without logging it. */
export function describeError(exception: unknown, request: FastifyRequest): ErrorDescription {
  return describeKnownError(exception, request) ?? defectAnswer(request);
}

/**
 * The one place errors become responses: every status of 400 or more answers exactly
 * `{"error": "..."}`. Installed both as Nest's global filter and as Fastify's error handler,
 * since body parsing fails before Nest sees the request.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.reply(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }

  reply(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const { status, message } = this.describe(exception, request);
    void reply.status(status).send({ error: message });
  }

  private describe(exception: unknown, request: FastifyRequest): ErrorDescription {
    const known = describeKnownError(exception, request);
    if (known) return known;
    // Anything else is a defect: log it whole, tell the client only how to find it in the log.
    this.logger.error(
      `request ${request.id} ${request.method} ${request.url} failed`,
      exception instanceof Error ? exception.stack : String(exception),
    );
    return defectAnswer(request);
  }
}
