import { ApiProperty } from '@nestjs/swagger';
import { AssetResponse } from '../../assets/dto/asset-response.dto.js';
import { RelationResponse } from '../../relations/dto/relation-response.dto.js';

/** Assets and relations between them: a neighbourhood, or a path in walk order. */
export class GraphResponse {
  @ApiProperty({
    type: () => [AssetResponse],
    description: 'Assets as GET /api/assets/:id answers them',
  })
  assets: AssetResponse[];

  @ApiProperty({
    type: () => [RelationResponse],
    description: 'Relations as GET /api/relations/:id answers them',
  })
  relations: RelationResponse[];
}
