import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../common/decorators/public.decorator.js';
import { ApiErrorResponses } from '../common/openapi/api-error-responses.decorator.js';
import { HealthResponse } from './dto/health-response.dto.js';
import { HealthService } from './health.service.js';

/** Probes for Kubernetes: public, so AccessGuard lets them through without rate limiting. */
@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @ApiOperation({
    summary: 'Liveness probe',
    description: 'Public, never rate limited, never touches the database.',
  })
  @ApiOkResponse({ type: HealthResponse })
  live(): HealthResponse {
    return this.health.live();
  }

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
