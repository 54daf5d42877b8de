import { Controller, Get } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { Public } from '../common/decorators/public.decorator.js';
import type { HealthResponse } from './dto/health-response.dto.js';
import { HealthService } from './health.service.js';

/** Probes for Kubernetes: public and never rate limited. */
@Public()
@SkipThrottle()
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
