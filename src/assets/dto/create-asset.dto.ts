import { ApiPropertyOptional } from '@nestjs/swagger';
import { Field } from '../../common/field-rules/field.decorator.js';
import { ASSET_FIELDS } from '../../common/field-rules/inventory-fields.js';
import { IsServiceList } from '../../common/validators/service-list.validator.js';
import { ServiceInput } from './service-input.dto.js';

/**
 * `id`, `source`, `vulnerabilities`, `sources` and the sightings are not writable here: ingestion
 * writes them; `origin` is set once, when the asset is created.
 */
export class CreateAssetDto {
  @Field(ASSET_FIELDS.name)
  name: string;

  @Field(ASSET_FIELDS.ip)
  ip?: string | null;

  @Field(ASSET_FIELDS.type)
  type?: string | null;

  @Field(ASSET_FIELDS.vendor)
  vendor?: string | null;

  @Field(ASSET_FIELDS.model)
  model?: string | null;

  @Field(ASSET_FIELDS.risk_score)
  risk_score?: number | null;

  @Field(ASSET_FIELDS.site)
  site?: string | null;

  @Field(ASSET_FIELDS.os_version)
  os_version?: string | null;

  @IsServiceList()
  @ApiPropertyOptional({
    type: () => [ServiceInput],
    description:
      'Its network services, at most one per (port, protocol); on PUT, present replaces the list, absent keeps it. Cannot be null',
    example: [{ port: 443, protocol: 'tcp', name: 'https', product: 'nginx', version: '1.24.0' }],
  })
  services?: ServiceInput[];
}
