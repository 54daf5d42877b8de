import { ApiProperty } from '@nestjs/swagger';

/** The one body of every answer with a status of 400 or more (CONTRACT section 2). */
export class ErrorResponseDto {
  @ApiProperty({
    description: 'A readable sentence; validation errors name each offending field',
    example: 'name must be shorter than or equal to 255 characters',
  })
  error: string;
}
