import type { ApiPropertyOptions } from '@nestjs/swagger';
import { fieldSchema } from '../field-rules/field-rule.js';
import { ASSET_FIELDS, RELATION_FIELDS } from '../field-rules/inventory-fields.js';

/** The schema of a relation's `toPorts`, from its field rule. */
export const PORT_LIST_PROPERTY = fieldSchema(RELATION_FIELDS.toPorts) satisfies ApiPropertyOptions;

/** The schema of an asset's `ip`, from its field rule. */
export const IP_PROPERTY = {
  ...fieldSchema(ASSET_FIELDS.ip),
  description: ASSET_FIELDS.ip.description,
} satisfies ApiPropertyOptions;
