import { ApiPropertyOptional } from '@nestjs/swagger';
import { Field } from '../../common/field-rules/field.decorator.js';
import { FieldsClass } from '../../common/field-rules/fields-class.js';
import { ASSET_FIELD_RULES } from '../../common/field-rules/inventory-fields.js';
import { SERVICE_LIST } from '../../common/field-rules/service-list.js';
import { VULNERABILITY_LIST } from '../../common/field-rules/vulnerability-list.js';
import { IsEntryList } from '../../common/validators/entry-list.validator.js';
import { IsIdentityList } from '../../common/validators/identity-list.validator.js';
import { IDENTITY_LIST_DOCS } from './identity-list-docs.js';
import {
  ASSET_FIELDS,
  type AssetField,
  type AssetFieldValues,
} from '../../database/tables/assets.table.js';
import { ServiceInput } from './service-input.dto.js';
import { VulnerabilityInput } from './vulnerability-input.dto.js';

/** The asset's fields as a request writes them: the name is required, the rest optional. */
export type AssetFieldsInput = Partial<AssetFieldValues> & Pick<AssetFieldValues, 'name'>;

/**
 * Every field of the assets table, checked by its rule. `id`, `source`, `sources` and the
 * sightings are not writable here: ingestion writes them; `origin` is set
 * once, when the asset is created.
 */
export class CreateAssetDto extends FieldsClass<AssetFieldsInput, AssetField>(
  ASSET_FIELDS,
  ASSET_FIELD_RULES,
  (rule) => Field(rule),
) {
  @IsIdentityList('addresses')
  @ApiPropertyOptional(IDENTITY_LIST_DOCS.addresses)
  addresses?: string[];

  @IsIdentityList('macAddresses')
  @ApiPropertyOptional(IDENTITY_LIST_DOCS.macAddresses)
  macAddresses?: string[];

  @IsIdentityList('hostnames')
  @ApiPropertyOptional(IDENTITY_LIST_DOCS.hostnames)
  hostnames?: string[];

  @IsIdentityList('tags')
  @ApiPropertyOptional(IDENTITY_LIST_DOCS.tags)
  tags?: string[];

  @IsEntryList(SERVICE_LIST)
  @ApiPropertyOptional({
    type: () => [ServiceInput],
    description:
      'Its network services, at most one per (port, protocol); on PUT, present replaces the list, absent keeps it. Cannot be null',
    example: [{ port: 443, protocol: 'tcp', name: 'https', product: 'nginx', version: '1.24.0' }],
  })
  services?: ServiceInput[];

  @IsEntryList(VULNERABILITY_LIST)
  @ApiPropertyOptional({
    type: () => [VulnerabilityInput],
    description:
      'Its vulnerabilities, at most one per id: each becomes (or reopens, or stays) a finding of the asset, and its open or accepted findings not listed are fixed; on PUT, present replaces the list, absent keeps it. Cannot be null',
    example: [
      { id: 'CVE-2024-3094', score: 10, summary: 'xz backdoor', publishedDate: '2024-03-29' },
    ],
  })
  vulnerabilities?: VulnerabilityInput[];
}
