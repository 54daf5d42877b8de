import { ApiProperty } from '@nestjs/swagger';
import type { Diagram } from '../../database/entities/diagram.entity.js';
import {
  DiagramSummaryResponse,
  toDiagramSummaryResponse,
} from './diagram-summary-response.dto.js';

/** A diagram whole: its summary and its `content`. */
export class DiagramResponse extends DiagramSummaryResponse {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The JSON object as it was given, keys in the same order',
    example: { nodes: [{ assetId: 'core-switch', x: 10, y: 20 }], edges: [] },
  })
  content: Record<string, unknown>;
}

export function toDiagramResponse(diagram: Diagram): DiagramResponse {
  return {
    ...toDiagramSummaryResponse(diagram),
    // Stored as JSON text rather than a JSON column type, so keys come back in the order sent.
    content: JSON.parse(diagram.content) as Record<string, unknown>,
  };
}
