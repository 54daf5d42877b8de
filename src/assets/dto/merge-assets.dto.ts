import { ApiProperty } from '@nestjs/swagger';
import { fieldProblem } from '../../common/field-rules/field-rule.js';
import { ASSET_ID_RULE } from '../../common/field-rules/inventory-fields.js';
import { IsUniqueList } from '../../common/validators/unique-list.validator.js';

/** Most assets one merge folds into another. */
export const MAX_MERGED_ASSETS = 100;

/** The assets a merge folds into the one of its path. */
export class MergeAssetsDto {
  @IsUniqueList(MAX_MERGED_ASSETS, (entry) => fieldProblem(ASSET_ID_RULE, entry))
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_MERGED_ASSETS,
    uniqueItems: true,
    description:
      'The ids of the assets to fold into the asset of the path (1 to 100, each once, not that asset itself); each must exist',
    example: ['laptop-dhcp-2'],
  })
  from: string[];
}
