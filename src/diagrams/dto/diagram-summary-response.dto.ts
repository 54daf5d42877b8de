import { ApiProperty } from '@nestjs/swagger';
import { DiagramVisibility, type Diagram } from '../../database/entities/diagram.entity.js';

/** A diagram as the list shows it: everything but `content`, which can be large. */
export class DiagramSummaryResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'Paris DC' })
  name: string;

  @ApiProperty({ type: String, nullable: true, example: 'Core network of the Paris site' })
  description: string | null;

  @ApiProperty({
    enum: DiagramVisibility,
    enumName: 'DiagramVisibility',
    description: 'private: the owner and admins only; public: every signed-in user reads it',
    example: 'public',
  })
  visibility: DiagramVisibility;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The user who created it; null once that user is deleted',
  })
  ownerId: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export function toDiagramSummaryResponse(diagram: Diagram): DiagramSummaryResponse {
  return {
    id: diagram.id,
    name: diagram.name,
    description: diagram.description,
    visibility: diagram.visibility,
    ownerId: diagram.ownerId,
    createdAt: diagram.createdAt.toISOString(),
    updatedAt: diagram.updatedAt.toISOString(),
  };
}
