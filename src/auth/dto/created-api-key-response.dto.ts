import { ApiKeyResponse } from './api-key-response.dto.js';

/** The answer to creating a key: the only time the secret `key` is shown. */
export class CreatedApiKeyResponse extends ApiKeyResponse {
  key: string;
}
