import { ApiProperty } from '@nestjs/swagger';
import { ApiKeyResponse } from './api-key-response.dto.js';

/** The answer to creating a key: the only time the secret `key` is shown. */
export class CreatedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({
    description:
      'The key for `Authorization: Bearer <key>`, shown in this answer only: `amk_<12 hex>_<43 characters>`',
    example: 'amk_3f9c0a1b2c4d_Q2hhbmdlIG1lIGJlZm9yZSB1c2luZyBpbiBwcm9kdWN0aW9u',
  })
  key: string;
}
