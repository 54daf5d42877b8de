import { Module } from '@nestjs/common';
import { HealthController } from './health.controller.js';
import { HealthService } from './health.service.js';
import { LivenessRoute } from './liveness.route.js';

@Module({ controllers: [HealthController], providers: [HealthService, LivenessRoute] })
export class HealthModule {}
