import { Controller, Get } from '@nestjs/common';
import { Public } from '../common/decorators/public.decorator.js';
import type { HealthResponse } from './dto/health-response.dto.js';
import { HealthService } from './health.service.js';

/** Probes for Kubernetes: public, so AccessGuard lets them through without rate limiting. */
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  live(): HealthResponse {
    return this.health.live();
  }

  @Get('ready')
  ready(): Promise<HealthResponse> {
    return this.health.ready();
  }
}
