import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../common/principal.js';
import type { ChangeOrigin } from '../database/history/change-origin.js';

/** The request's caller and id, for the change records of the writes it makes. */
export const Origin = createParamDecorator(
  (_data: unknown, context: ExecutionContext): ChangeOrigin => {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user: Principal }>();
    return { caller: request.user, requestId: request.id, runId: null };
  },
);
