import { ApiProperty } from '@nestjs/swagger';

export class HealthResponse {
  @ApiProperty({ enum: ['ok'], example: 'ok' })
  status: 'ok';

  @ApiProperty({ example: 'Asset Map is running' })
  message: string;

  @ApiProperty({ description: 'The package version', example: '0.1.0' })
  version: string;

  /** Seconds since the process started. */
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Seconds since the process started',
    example: 3600,
  })
  uptime: number;
}
