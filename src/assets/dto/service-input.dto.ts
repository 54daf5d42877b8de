import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { fieldSchema } from '../../common/field-rules/field-rule.js';
import { SERVICE_FIELDS } from '../../common/field-rules/inventory-fields.js';
import type { ServiceProtocol } from '../../common/field-rules/inventory-values.js';

/*
 * Documentation only: an entry of `services` is checked by readEntryList (through
 * IsEntryList on the REST DTOs, by hand in ingestion), from the rules documented here.
 */

/** An entry of `services` as given to POST/PUT /api/assets and in an ingestion item. */
export class ServiceInput {
  @ApiProperty({ ...fieldSchema(SERVICE_FIELDS.port), description: 'Unique with the protocol' })
  port: number;

  @ApiProperty(fieldSchema(SERVICE_FIELDS.protocol))
  protocol: ServiceProtocol;

  @ApiPropertyOptional(fieldSchema(SERVICE_FIELDS.name))
  name?: string | null;

  @ApiPropertyOptional(fieldSchema(SERVICE_FIELDS.product))
  product?: string | null;

  @ApiPropertyOptional(fieldSchema(SERVICE_FIELDS.version))
  version?: string | null;
}
