import type { Diagram, DiagramVisibility } from '../diagram.entity.js';

/** A diagram as the list shows it: everything but `content`, which can be large. */
export class DiagramSummaryResponse {
  id: string;
  name: string;
  description: string | null;
  visibility: DiagramVisibility;
  ownerId: string | null;
  createdAt: string;
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
