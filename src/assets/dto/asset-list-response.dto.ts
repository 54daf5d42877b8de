import { ApiProperty } from '@nestjs/swagger';
import { AssetResponse } from './asset-response.dto.js';

export class AssetListResponse {
  @ApiProperty({ type: () => [AssetResponse], description: 'The requested page' })
  assets: AssetResponse[];

  /** How many assets match the filters, whatever the page. */
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'How many assets match the filters, whatever the page',
    example: 1,
  })
  total: number;
}
