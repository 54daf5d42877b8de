import { ApiProperty } from '@nestjs/swagger';

/** Who wrote (ran an ingestion, made a change), as it was then. */
export class RunActor {
  @ApiProperty({ format: 'uuid', example: '01936f0d-2b4c-7d1e-8f3a-5c7e9a1b3d5f' })
  userId: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'null for a service account',
    example: 'ci@example.com',
  })
  email: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The API key the request came with; null for a session token',
    example: '01936f0d-9e8f-7a6b-8c5d-4e3f2a1b0c9d',
  })
  apiKeyId: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "That key's displayable prefix; null for a session token",
    example: 'amk_3f9a1c2e',
  })
  apiKeyPrefix: string | null;
}
