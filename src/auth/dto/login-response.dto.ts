import type { UserResponse } from './user-response.dto.js';

export class LoginResponse {
  token: string;
  user: UserResponse;
}
