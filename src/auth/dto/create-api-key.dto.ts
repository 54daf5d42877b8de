import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { fieldProblem } from '../../common/field-rules/field-rule.js';
import { SOURCE_RULE } from '../../common/field-rules/inventory-fields.js';
import { parseCidr } from '../../common/key-rules.js';
import { Scope, SCOPES } from '../../common/scope.js';
import { IsFutureTimestamp } from '../../common/validators/future-timestamp.validator.js';
import { SkipIfUndefined } from '../../common/validators/skip-if-undefined.validator.js';
import { IsText } from '../../common/validators/text.validator.js';
import { IsUniqueList } from '../../common/validators/unique-list.validator.js';

export const MAX_KEY_SOURCES = 100;
export const MAX_KEY_CIDRS = 100;

const scopeProblem = (entry: unknown) =>
  SCOPES.includes(entry as Scope) ? null : `must be one of ${SCOPES.join(', ')}`;
const cidrProblem = (entry: unknown) =>
  typeof entry === 'string' && entry.length <= 64 && parseCidr(entry)
    ? null
    : 'must be an IPv4 or IPv6 prefix such as 192.0.2.0/24 or 2001:db8::/32';

export class CreateApiKeyDto {
  @IsText()
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'nightly scan' })
  name: string;

  @IsOptional()
  @IsFutureTimestamp()
  @ApiPropertyOptional({
    format: 'date-time',
    description: 'An ISO 8601 timestamp in the future; left out, the key never expires',
    example: '2027-12-31T00:00:00Z',
  })
  expiresAt?: string;

  // May be left out (every scope the role allows), not nulled.
  @SkipIfUndefined()
  @IsUniqueList(SCOPES.length, scopeProblem)
  @ApiPropertyOptional({
    enum: Scope,
    enumName: 'Scope',
    isArray: true,
    minItems: 1,
    uniqueItems: true,
    description:
      "What the key may do: `read` (every GET), `write` (changing assets, relations, diagrams, triage), `ingest` (ingestion, dry runs included, and reading runs), `admin` (what only admins may do). Left out: every scope the user's role allows; a scope beyond it is a 400. The user's current role still bounds the key at each request.",
    example: ['ingest'],
  })
  scopes?: Scope[];

  @IsOptional()
  @IsUniqueList(MAX_KEY_SOURCES, (entry) => fieldProblem(SOURCE_RULE, entry))
  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    minItems: 1,
    maxItems: MAX_KEY_SOURCES,
    uniqueItems: true,
    description:
      'The feeds the key may ingest as (1 to 100 characters each): an ingestion must name one of them as its `source`. null or left out: any.',
    example: ['nmap-dmz'],
  })
  sources?: string[] | null;

  @IsOptional()
  @IsUniqueList(MAX_KEY_CIDRS, cidrProblem)
  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    minItems: 1,
    maxItems: MAX_KEY_CIDRS,
    uniqueItems: true,
    description:
      'The client address prefixes (IPv4 or IPv6; an address alone is a prefix of one address) the key may be used from, the address as TRUST_PROXY says. null or left out: any.',
    example: ['192.0.2.0/24', '2001:db8::/32'],
  })
  allowedCidrs?: string[] | null;
}
