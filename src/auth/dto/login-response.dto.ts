import { ApiProperty } from '@nestjs/swagger';
import { UserResponse } from './user-response.dto.js';

export class LoginResponse {
  @ApiProperty({
    description:
      'A session token (JWT) for `Authorization: Bearer <token>`; it ends at JWT_EXPIRES_IN or at a password change',
    example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...',
  })
  token: string;

  @ApiProperty({ type: () => UserResponse })
  user: UserResponse;
}
