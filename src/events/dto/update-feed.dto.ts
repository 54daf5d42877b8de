import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min, ValidateIf } from 'class-validator';

/** Body of PUT /api/sources/:name. */
export class UpdateFeedDto {
  // Required; null clears the expectation.
  @ValidateIf((_object: object, value: unknown) => value !== null)
  @IsInt({ message: 'expectedEverySeconds must be an integer or null' })
  @Min(60)
  @Max(31_536_000)
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 60,
    maximum: 31_536_000,
    description: 'How often a run of the feed should succeed; null: no expectation',
    example: 86400,
  })
  expectedEverySeconds: number | null;
}
