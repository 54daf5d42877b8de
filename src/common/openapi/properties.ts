import type { ApiPropertyOptions } from '@nestjs/swagger';
import { MAX_PORT_LIST_LENGTH } from '../validators/port-list.validator.js';

/**
 * The schema of a `toPorts` list, as port-list.validator.ts checks it. The pattern is the
 * spelling; the range (1 to 65535, start at most end) is in the description.
 */
export const PORT_LIST_PROPERTY = {
  type: String,
  nullable: true,
  maxLength: MAX_PORT_LIST_LENGTH,
  pattern: '^[1-9]\\d{0,4}(-[1-9]\\d{0,4})?(,[1-9]\\d{0,4}(-[1-9]\\d{0,4})?)*$',
  description:
    "Comma-separated ports or port ranges, each port from 1 to 65535 and a range's start at most its end; no spaces or leading zeros; null clears it",
  example: '443,8000-8080',
} satisfies ApiPropertyOptions;

/** An asset's `ip`, as asset-fields.validator.ts checks it. */
export const IP_PROPERTY = {
  type: String,
  nullable: true,
  maxLength: 45,
  description: 'An IPv4 or IPv6 address; null clears it',
  example: '10.0.0.1',
} satisfies ApiPropertyOptions;
