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
import { IsOptionalQueryValue } from '../../common/validators/identity-query.validator.js';
import {
  IsRepeatableQueryValue,
  MAX_QUERY_REPEATS,
} from '../../common/validators/repeatable-query.validator.js';
import {
  MAX_TAG_LENGTH,
  TAG_RULE_TEXT,
  normalizeHostname,
  normalizeMac,
  normalizeTag,
  prefixKeyRange,
} from '../../common/field-rules/identity-values.js';

// Room for a cursor of the longest sort key and id (base64url of JSON: 4/3 of its text, escapes).
const MAX_CURSOR_LENGTH = 2048;
const SORT_VALUES = ASSET_SORT_FIELDS.flatMap((field) => [field, `-${field}`]);

/** The list's paging (`limit` 1 to 1000, default 100; `offset`), filters and order. */
export class ListAssetsQueryDto extends PageQueryDto {
  /** Case-insensitive substring of a searched field (the list in its description). */
  @IsOptionalText()
  @ApiPropertyOptional({
    maxLength: 255,
    description:
      'Case-insensitive substring of name, ip, vendor, model, site, type, os_version, or of an address, MAC address or host name (`%` and `_` are plain characters)',
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

  /** Assets with an address in this prefix. */
  @IsOptionalQueryValue(prefixKeyRange, 'an IPv4 or IPv6 prefix, such as 10.20.0.0/16')
  @ApiPropertyOptional({
    description: 'Assets with an address in this IPv4 or IPv6 prefix (address/length)',
    example: '10.20.0.0/16',
  })
  cidr?: string;

  /** Assets holding this MAC address. */
  @IsOptionalQueryValue(normalizeMac, 'a MAC address')
  @ApiPropertyOptional({
    description:
      'Assets holding this MAC address, in any common notation (aa:bb:cc:dd:ee:ff, aa-bb-cc-dd-ee-ff, aabb.ccdd.eeff, aabbccddeeff)',
    example: '00:1b:21:3a:4f:5c',
  })
  mac?: string;

  /** Assets holding this host name. */
  @IsOptionalQueryValue(normalizeHostname, 'a DNS name of at most 253 characters')
  @ApiPropertyOptional({
    maxLength: 253,
    description: 'Assets holding this host name, compared in lower case',
    example: 'web-01.example.com',
  })
  hostname?: string;

  /** Assets holding every tag given (the parameter repeated for several). */
  @IsRepeatableQueryValue(normalizeTag, `a tag: ${TAG_RULE_TEXT}`)
  @ApiPropertyOptional({
    type: String,
    isArray: true,
    maxItems: MAX_QUERY_REPEATS,
    description: `Assets holding this tag (${MAX_TAG_LENGTH} characters at most, exact, case included); repeat the parameter for several (\`tag=internet&tag=pci\`): an asset must hold them all`,
    example: ['internet'],
  })
  tag?: string[];

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
      'A field, `-` in front for descending; missing values sort last either way. Default: createdAt, then id',
    example: '-risk_score',
  })
  sort?: string;
}
