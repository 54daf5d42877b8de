import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { IsJsonObject } from '../../common/validators/json-object.validator.js';
import { SkipIfUndefined } from '../../common/validators/skip-if-undefined.validator.js';
import { IsOptionalText, IsText } from '../../common/validators/text.validator.js';
import { DiagramVisibility } from '../../database/entities/diagram.entity.js';

/** Largest accepted `content`, measured as its UTF-8 JSON serialization. */
const MAX_CONTENT_BYTES = 1024 * 1024;

const DIAGRAM_VISIBILITIES = Object.values(DiagramVisibility);

export class CreateDiagramDto {
  @IsText()
  @ApiProperty({ minLength: 1, maxLength: 255, example: 'Paris DC' })
  name: string;

  @IsOptionalText(2000)
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 2000,
    description: 'null clears it',
    example: 'Core network of the Paris site',
  })
  description?: string | null;

  // Left out means the default; null is refused rather than read as "the default".
  @SkipIfUndefined()
  @IsIn(DIAGRAM_VISIBILITIES)
  @ApiPropertyOptional({
    enum: DiagramVisibility,
    enumName: 'DiagramVisibility',
    description:
      'private (when a diagram is created without it): the owner and admins only; public: every signed-in user reads it. Cannot be null',
  })
  visibility?: DiagramVisibility;

  @SkipIfUndefined()
  @IsJsonObject(MAX_CONTENT_BYTES)
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'Any JSON object, kept as given: at most 1 MiB as compact UTF-8 JSON and 100 levels deep; {} when a diagram is created without it; cannot be null. The UI stores {"nodes": [{"assetId", "x", "y"}], "edges": [{"relationId"}]}',
    example: { nodes: [{ assetId: 'core-switch', x: 10, y: 20 }], edges: [] },
  })
  content?: Record<string, unknown>;
}
