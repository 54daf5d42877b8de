import { ApiProperty } from '@nestjs/swagger';
import { AssetResponse } from '../../assets/dto/asset-response.dto.js';

/** An asset reachable from another, and in how few hops. */
export class ReachableAssetResponse {
  @ApiProperty({ type: () => AssetResponse, description: 'As GET /api/assets/:id answers it' })
  asset: AssetResponse;

  @ApiProperty({
    type: 'integer',
    minimum: 1,
    description: 'The fewest hops that reach it',
    example: 2,
  })
  hops: number;
}
