import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/decorators/public.decorator.js';
import { ApiErrorResponses } from '../common/openapi/api-error-responses.decorator.js';
import { HealthResponse } from './dto/health-response.dto.js';
import { HealthService } from './health.service.js';

/**
 * Readiness probe for Kubernetes: public, so AccessGuard lets it through without rate limiting.
 * The liveness probe, GET /api/health, is served ahead of Nest's router (LivenessRoute).
 */
@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get('ready')
  @ApiOperation({
    summary: 'Readiness probe',
    description: 'Public, never rate limited: 200 when the database answers within 2 s.',
  })
  @ApiOkResponse({ type: HealthResponse })
  @ApiErrorResponses(503)
  ready(): Promise<HealthResponse> {
    return this.health.ready();
  }
}
