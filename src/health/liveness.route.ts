import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { OpenAPIObject, OperationObject } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import { HealthService } from './health.service.js';

/** Where Kubernetes' liveness probe asks. */
export const LIVENESS_PATH = '/api/health';

const RESPONSE_SCHEMA = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    message: { type: 'string' },
    version: { type: 'string' },
    uptime: { type: 'integer' },
  },
  required: ['status', 'message', 'version', 'uptime'],
};

/** The document with the liveness route in its place, before the readiness route. */
export function addLivenessRoute(document: OpenAPIObject): OpenAPIObject {
  const paths = Object.entries(document.paths);
  const ready = paths.findIndex(([path]) => path.startsWith(`${LIVENESS_PATH}/`));
  const liveness = { get: structuredClone(LIVENESS_OPERATION) };
  paths.splice(ready < 0 ? paths.length : ready, 0, [LIVENESS_PATH, liveness]);
  return { ...document, paths: Object.fromEntries(paths) };
}

/** Its entry in the OpenAPI document, which @nestjs/swagger builds from Nest's routes only. */
export const LIVENESS_OPERATION: OperationObject = {
  // The id it had as a controller method, so that generated clients keep their method name.
  operationId: 'HealthController_live',
  summary: 'Liveness probe',
  description: 'Public, never rate limited, never touches the database.',
  tags: ['health'],
  parameters: [],
  responses: {
    200: {
      description: '',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/HealthResponse' } } },
    },
  },
};

/**
 * GET /api/health, registered on Fastify directly rather than through Nest's router. It is
 * public and takes no input, so Nest's per-route work (the global AccessGuard, the pipes, the
 * chain of awaits around the handler) has nothing to do there, yet costs much of its
 * throughput. Every Fastify hook still applies: security headers, request id, request log, CORS,
 * Connection: close while draining.
 */
@Injectable()
export class LivenessRoute implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly health: HealthService,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // The response schema lets Fastify compile the body's serializer.
    fastify.get(LIVENESS_PATH, { schema: { response: { 200: RESPONSE_SCHEMA } } }, () =>
      this.health.live(),
    );
  }
}
