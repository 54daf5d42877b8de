import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/dto/page-query.dto.js';
import { Field } from '../../common/field-rules/field.decorator.js';
import {
  ASSET_FIELD_RULES,
  SERVICE_FIELDS,
  SOURCE_RULE,
} from '../../common/field-rules/inventory-fields.js';
import { ASSET_SORT_FIELDS } from '../../common/field-rules/inventory-values.js';
import { DigitsToNumber } from '../../common/validators/query-integer.validator.js';
import { IsOptionalText } from '../../common/validators/text.validator.js';

// Room for a cursor of the longest sort key and id (base64url of JSON: 4/3 of its text, escapes).
const MAX_CURSOR_LENGTH = 2048;
const SORT_VALUES = ASSET_SORT_FIELDS.flatMap((field) => [field, `-${field}`]);

/** The list's paging (`limit` 1 to 1000, default 100; `offset`), filters and order. */
export class ListAssetsQueryDto extends PageQueryDto {
  /** Case-insensitive substring of name, ip, vendor, model, site, type or os_version. */
  @IsOptionalText()
  @ApiPropertyOptional({
    maxLength: 255,
    description:
      'Case-insensitive substring of name, ip, vendor, model, site, type or os_version (`%` and `_` are plain characters)',
    example: 'paris',
  })
  search?: string;

  @IsOptionalText(ASSET_FIELD_RULES.type.max)
  @ApiPropertyOptional({
    maxLength: ASSET_FIELD_RULES.type.max,
    description: 'Exact type',
    example: 'server',
  })
  type?: string;

  @IsOptionalText(ASSET_FIELD_RULES.site.max)
  @ApiPropertyOptional({
    maxLength: ASSET_FIELD_RULES.site.max,
    description: 'Exact site',
    example: 'paris',
  })
  site?: string;

  /** Assets whose `sources` hold this feed. */
  @Field(SOURCE_RULE, {
    required: false,
    description: 'Assets whose sources hold this feed (an ingestion source, exact)',
  })
  source?: string;

  /** Assets with a service on this port (any protocol). */
  @DigitsToNumber()
  @Field(SERVICE_FIELDS.port, {
    required: false,
    description: 'Assets with a service on this port (any protocol); plain digits only',
  })
  port?: number;

  /** Assets with a service of this name. */
  @IsOptionalText(SERVICE_FIELDS.name.max)
  @ApiPropertyOptional({
    maxLength: SERVICE_FIELDS.name.max,
    description: 'Assets with a service of this name (exact)',
    example: 'https',
  })
  service?: string;

  /** Where the page starts: the cursor of the `next` link of the page before. */
  @IsOptionalText(MAX_CURSOR_LENGTH)
  @ApiPropertyOptional({
    maxLength: MAX_CURSOR_LENGTH,
    description:
      'Keyset paging: the page starts after the asset this opaque cursor names, in the same sort. Take it from the `Link` header\'s `rel="next"` link of the page before; not with `offset`',
    example: 'WyJjcmVhdGVkQXQiLCIyMDI2LTExLTI0IDEzOjQyOjM3LjEyMyIsImhvc3QtMSJd',
  })
  after?: string;

  /** A field, `-` in front for descending. */
  @IsOptional()
  @IsIn(SORT_VALUES, { message: `sort must be one of ${SORT_VALUES.join(', ')}` })
  @ApiPropertyOptional({
    enum: SORT_VALUES,
    description:
      'A field, `-` in front for descending; missing values sort last ascending, first descending. Default: createdAt, then id',
    example: '-risk_score',
  })
  sort?: string;
}
