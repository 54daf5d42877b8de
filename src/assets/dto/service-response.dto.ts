import { ApiProperty } from '@nestjs/swagger';
import type { ServiceRow } from '../../database/tables/services.table.js';
import {
  SERVICE_PROTOCOLS,
  type ServiceProtocol,
} from '../../common/field-rules/inventory-values.js';

export class ServiceResponse {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 65535, example: 443 })
  port: number;

  @ApiProperty({ enum: SERVICE_PROTOCOLS, enumName: 'ServiceProtocol', example: 'tcp' })
  protocol: ServiceProtocol;

  @ApiProperty({ type: String, nullable: true, example: 'https' })
  name: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'nginx' })
  product: string | null;

  @ApiProperty({ type: String, nullable: true, example: '1.24.0' })
  version: string | null;
}

export function toServiceResponse(row: ServiceRow): ServiceResponse {
  return {
    port: row.port,
    protocol: row.protocol,
    name: row.name,
    product: row.product,
    version: row.version,
  };
}
