import { IsPageLimit, IsPageOffset } from '../../common/validators/paging.validator.js';

/** Without `limit` every visible diagram from `offset` on is returned. */
export class ListDiagramsQueryDto {
  @IsPageLimit()
  limit?: number;

  @IsPageOffset()
  offset?: number;
}
