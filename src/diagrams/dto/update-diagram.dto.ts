import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { IsJsonObject } from '../../common/validators/json-object.validator.js';
import { IsOptionalText } from '../../common/validators/optional-text.validator.js';
import { OmittableButNotNull } from '../../common/validators/required-on-update.validator.js';
import { IsText } from '../../common/validators/text.validator.js';
import { DiagramVisibility } from '../diagram.entity.js';
import { DIAGRAM_VISIBILITIES, MAX_CONTENT_BYTES } from './create-diagram.dto.js';

export class UpdateDiagramDto {
  @OmittableButNotNull()
  @IsText()
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 255,
    description: 'Cannot be null',
    example: 'Paris DC',
  })
  name?: string;

  @IsOptionalText(2000)
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 2000,
    description: 'null clears it',
  })
  description?: string | null;

  @OmittableButNotNull()
  @IsIn(DIAGRAM_VISIBILITIES)
  @ApiPropertyOptional({
    enum: DiagramVisibility,
    enumName: 'DiagramVisibility',
    description: 'Cannot be null',
  })
  visibility?: DiagramVisibility;

  @OmittableButNotNull()
  @IsJsonObject(MAX_CONTENT_BYTES)
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'Any JSON object, kept as given: at most 1 MiB as compact UTF-8 JSON and 100 levels deep; cannot be null. The UI stores {"nodes": [{"assetId", "x", "y"}], "edges": [{"relationId"}]}',
    example: { nodes: [{ assetId: 'core-switch', x: 10, y: 20 }], edges: [] },
  })
  content?: Record<string, unknown>;
}
