import type { Diagram, DiagramVisibility } from '../diagram.entity.js';

export class DiagramResponse {
  id: string;
  name: string;
  description: string | null;
  visibility: DiagramVisibility;
  ownerId: string | null;
  content: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export function toDiagramResponse(diagram: Diagram): DiagramResponse {
  return {
    id: diagram.id,
    name: diagram.name,
    description: diagram.description,
    visibility: diagram.visibility,
    ownerId: diagram.ownerId,
    // Stored as JSON text rather than a JSON column type, so keys come back in the order sent.
    content: JSON.parse(diagram.content) as Record<string, unknown>,
    createdAt: diagram.createdAt.toISOString(),
    updatedAt: diagram.updatedAt.toISOString(),
  };
}
