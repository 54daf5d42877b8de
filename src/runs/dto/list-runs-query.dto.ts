import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../../common/dto/page-query.dto.js';
import { IsText } from '../../common/validators/text.validator.js';
import { RUN_STATUSES, type RunStatus } from '../../database/entities/ingestion-run.entity.js';

/** Query of GET /api/integrations/runs. */
export class ListRunsQueryDto extends PageQueryDto {
  @IsOptional()
  @IsText(100)
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 100,
    description: 'Runs of this feed (options.source), exact',
    example: 'nmap-dmz',
  })
  source?: string;

  @IsOptional()
  @IsIn(RUN_STATUSES, { message: `status must be one of ${RUN_STATUSES.join(', ')}` })
  @ApiPropertyOptional({ enum: RUN_STATUSES, enumName: 'RunStatus', example: 'failed' })
  status?: RunStatus;
}
