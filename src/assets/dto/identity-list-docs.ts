import type { ApiPropertyOptions } from '@nestjs/swagger';
import {
  MAX_HOSTNAME_LENGTH,
  MAX_IDENTITY_ENTRIES,
  MAX_TAGS,
  TAG_RULE_TEXT,
  type SpacedList,
} from '../../common/field-rules/identity-values.js';

/**
 * The OpenAPI schema of each identity list and of the tags as a request gives them (REST and
 * ingestion items).
 */
export const IDENTITY_LIST_DOCS: Record<SpacedList, ApiPropertyOptions> = {
  addresses: {
    type: [String],
    maxItems: MAX_IDENTITY_ENTRIES,
    description:
      'Its IPv4 and IPv6 addresses, the first being ip; repeats are left out, IPv6 written in its short form. Present replaces the list; given without ip it sets ip to its first (null when empty); given with ip, ip must be its first; ip given alone replaces the first. Cannot be null',
    example: ['10.0.0.1', '2001:db8::1'],
  },
  macAddresses: {
    type: [String],
    maxItems: MAX_IDENTITY_ENTRIES,
    description:
      'Its MAC addresses in any common notation (aa:bb:cc:dd:ee:ff, aa-bb-cc-dd-ee-ff, aabb.ccdd.eeff, aabbccddeeff), written aa:bb:cc:dd:ee:ff; present replaces the list. Cannot be null',
    example: ['00:1b:21:3a:4f:5c'],
  },
  hostnames: {
    type: [String],
    maxItems: MAX_IDENTITY_ENTRIES,
    description: `Its DNS names (each up to ${MAX_HOSTNAME_LENGTH} characters), written in lower case without a final dot; present replaces the list. Cannot be null`,
    example: ['core-switch.paris.example.com'],
  },
  tags: {
    type: [String],
    maxItems: MAX_TAGS,
    description: `Its tags, each ${TAG_RULE_TEXT}, kept as given (case included); repeats are left out. \`internet\` marks an asset facing the internet (the dashboard's exposure). Present replaces the list. Cannot be null`,
    example: ['internet', 'pci'],
  },
};
