import { describe, expect, it } from '@jest/globals';
import { ForbiddenException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConflictError } from '../errors/conflict.error.js';
import type { DomainError } from '../errors/domain-error.js';
import { ForbiddenError } from '../errors/forbidden.error.js';
import { InvalidInputError } from '../errors/invalid-input.error.js';
import { NotFoundError } from '../errors/not-found.error.js';
import { UnauthorizedError } from '../errors/unauthorized.error.js';
import { UnavailableError } from '../errors/unavailable.error.js';
import { UnprocessableError } from '../errors/unprocessable.error.js';
import { FormatError } from '../../ingest/formats/format-error.js';
import {
  AllExceptionsFilter,
  DOMAIN_ERROR_STATUS,
  describeError,
} from './all-exceptions.filter.js';

const request = {
  id: 'request-1',
  method: 'POST',
  url: '/api/ingest',
  headers: {},
  routeOptions: { config: {}, bodyLimit: 1024 },
} as unknown as FastifyRequest;

/** What the filter answers `error` with: its status and body. */
function answer(error: unknown): { status: number; body: unknown } {
  const sent: { status: number; body: unknown } = { status: 0, body: undefined };
  const reply = {
    status(status: number) {
      sent.status = status;
      return reply;
    },
    send(body: unknown) {
      sent.body = body;
      return reply;
    },
  };
  new AllExceptionsFilter().reply(error, request, reply as unknown as FastifyReply);
  return sent;
}

describe('AllExceptionsFilter', () => {
  it.each<[DomainError, number]>([
    [new InvalidInputError('assets[0].ip must be an IP address'), 400],
    [new FormatError('the XML body has no root element'), 400],
    [new UnauthorizedError('Invalid e-mail or password'), 401],
    [new ForbiddenError('replace mode requires the admin role'), 403],
    [new NotFoundError('asset a1 not found'), 404],
    [new ConflictError('email is already in use'), 409],
    [new UnprocessableError('Idempotency-Key was already used with another body'), 422],
    [new UnavailableError('Not ready: shutting down'), 503],
  ])('answers a %s (%s) with its status and its message alone', (error, status) => {
    expect(answer(error)).toEqual({ status, body: { error: error.message } });
  });

  it('maps every kind, each to a client or availability status', () => {
    expect(Object.keys(DOMAIN_ERROR_STATUS).sort()).toEqual(
      [
        'conflict',
        'forbidden',
        'invalid',
        'not-found',
        'unauthorized',
        'unavailable',
        'unprocessable',
      ].sort(),
    );
  });

  it("answers the HTTP edge's own exceptions as before", () => {
    expect(answer(new ForbiddenException('This action requires the admin role'))).toEqual({
      status: 403,
      body: { error: 'This action requires the admin role' },
    });
  });

  it('answers anything else as a defect, telling only the request id', () => {
    expect(describeError(new Error('disk full'), request)).toEqual({
      status: 500,
      message: 'Internal server error (request request-1)',
    });
  });
});
