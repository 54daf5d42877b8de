import { ApiPropertyOptional } from '@nestjs/swagger';
import {
  FINDING_STATUSES,
  SEVERITIES,
  type FindingStatus,
  type Severity,
} from '../../common/field-rules/finding-values.js';
import { Field } from '../../common/field-rules/field.decorator.js';
import {
  ASSET_FIELD_RULES,
  ASSET_ID_RULE,
  SOURCE_RULE,
  VULNERABILITY_FIELDS,
} from '../../common/field-rules/inventory-fields.js';
import { IsQueryBoolean } from '../../common/validators/query-boolean.validator.js';
import { IsQueryList } from '../../common/validators/query-list.validator.js';
import { IsQueryNumber } from '../../common/validators/query-number.validator.js';
import { IsOptionalText } from '../../common/validators/text.validator.js';

/**
 * The filters of the findings' list, summary and trend; each given narrows what they show.
 * `status` and `severity` arrive as one value or a comma-separated list, and leave as a list.
 */
export class FindingFiltersQueryDto {
  @IsQueryList(FINDING_STATUSES)
  @ApiPropertyOptional({
    type: String,
    description: `One status or a comma-separated list of them (${FINDING_STATUSES.join(', ')}), as the findings read: an acceptance past its acceptedUntil is open`,
    example: 'open,accepted',
  })
  status?: FindingStatus[];

  @IsQueryList(SEVERITIES)
  @ApiPropertyOptional({
    type: String,
    description: `One severity or a comma-separated list of them (${SEVERITIES.join(', ')})`,
    example: 'critical,high',
  })
  severity?: Severity[];

  @Field(VULNERABILITY_FIELDS.id, {
    required: false,
    description: 'Findings of this vulnerability (exact)',
  })
  vulnId?: string;

  @Field(ASSET_ID_RULE, { required: false, description: 'Findings on this asset (its id, exact)' })
  assetId?: string;

  @Field(SOURCE_RULE, {
    required: false,
    description: 'Findings whose sources hold this feed (an ingestion source, exact)',
  })
  source?: string;

  @IsOptionalText(ASSET_FIELD_RULES.site.max)
  @ApiPropertyOptional({
    maxLength: ASSET_FIELD_RULES.site.max,
    description: "Findings on assets of this site (the asset's site, exact)",
    example: 'paris',
  })
  site?: string;

  @IsQueryNumber(0, 10)
  @ApiPropertyOptional({
    type: Number,
    minimum: 0,
    maximum: 10,
    description: 'Findings scored at least this (none without a score); plain decimal digits',
    example: 7,
  })
  minScore?: number;

  @IsQueryBoolean()
  @ApiPropertyOptional({
    type: Boolean,
    description: 'true: only the overdue findings (open, past their due date); false: the others',
  })
  overdue?: boolean;
}
