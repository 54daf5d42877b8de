import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ASSET_FIELDS } from '../../database/tables/assets.table.js';
import type {
  AssetChange,
  ChangeLists,
  FieldChanges,
  FindingChangeEntry,
  FindingChangeLists,
  IngestChanges,
  RelationChange,
} from '../plan/plan-changes.js';

const fieldsSchema = (description: string, example: FieldChanges) =>
  ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'array', minItems: 2, maxItems: 2, items: {} },
    description,
    example,
  });

export class AssetChangeDto implements AssetChange {
  @ApiProperty({ example: 'fw-1' })
  id: string;

  @ApiProperty({ example: 'fw-1' })
  name: string;

  @fieldsSchema(
    `Updated assets only: \`{"<field>": [before, after]}\` for every field whose value changed, named as the asset response names them (${[...ASSET_FIELDS, 'source', 'sources'].map((field) => `\`${field}\``).join(', ')}, \`firstSeenAt\` when it was null, \`vulnerabilities\` compared as a set and shown in id order, \`services\` compared as a set and shown in port then protocol order); never \`updatedAt\` or \`lastSeenAt\``,
    { ip: ['10.0.0.1', '10.0.0.9'], sources: [[], ['nmap-dmz']] },
  )
  fields?: FieldChanges;
}

export class RelationChangeDto implements RelationChange {
  @ApiProperty({ format: 'uuid', example: '0193a4f2-7c1e-7d3a-9b0e-2f4c1d5e6a7b' })
  id: string;

  @ApiProperty({ example: 'web-1' })
  sourceAssetId: string;

  @ApiProperty({ example: 'fw-1' })
  targetAssetId: string;

  @ApiProperty({ example: 'route' })
  type: string;

  @fieldsSchema(
    'Updated relations only: `{"<field>": [before, after]}` for `direction`, `protocol`, `toPorts` when changed',
    { toPorts: ['443', '443,8443'] },
  )
  fields?: FieldChanges;
}

export class FindingChangeDto implements FindingChangeEntry {
  @ApiProperty({ example: 'web-1' })
  assetId: string;

  @ApiProperty({ example: 'CVE-2024-3094' })
  vulnId: string;
}

const list = (
  entry: typeof AssetChangeDto | typeof RelationChangeDto | typeof FindingChangeDto,
  description: string,
) => ApiProperty({ type: () => [entry], maxItems: 100, description });

export class AssetChangeListsDto implements ChangeLists<AssetChange> {
  @list(AssetChangeDto, 'Assets created, in payload order')
  created: AssetChangeDto[];

  @list(
    AssetChangeDto,
    "Assets updated, in payload order; then those deleteStale keeps with the payload's source taken out of their sources, in id order",
  )
  updated: AssetChangeDto[];

  @list(AssetChangeDto, 'Assets deleted, in id order')
  deleted: AssetChangeDto[];
}

export class RelationChangeListsDto implements ChangeLists<RelationChange> {
  @list(RelationChangeDto, 'Relations created, in payload order')
  created: RelationChangeDto[];

  @list(RelationChangeDto, 'Relations updated, in payload order')
  updated: RelationChangeDto[];

  @list(
    RelationChangeDto,
    'Relations deleted (unlisted ones among the payload assets, and those of deleted assets), in id order',
  )
  deleted: RelationChangeDto[];
}

export class FindingChangeListsDto implements FindingChangeLists {
  @list(FindingChangeDto, 'Findings opened (new), in payload order')
  opened: FindingChangeDto[];

  @list(FindingChangeDto, 'Fixed findings reported again, in payload order')
  reopened: FindingChangeDto[];

  @list(FindingChangeDto, 'Findings fixed, in payload order')
  fixed: FindingChangeDto[];
}

export class IngestChangesDto implements IngestChanges {
  @ApiProperty({ type: () => AssetChangeListsDto })
  assets: AssetChangeListsDto;

  @ApiProperty({ type: () => RelationChangeListsDto })
  relations: RelationChangeListsDto;

  @ApiProperty({ type: () => FindingChangeListsDto })
  findings: FindingChangeListsDto;

  @ApiProperty({
    description: 'Whether any list was cut at 100 entries (the stats always hold the full counts)',
    example: false,
  })
  truncated: boolean;
}
