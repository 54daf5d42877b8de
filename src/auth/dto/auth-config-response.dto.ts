import { ApiProperty } from '@nestjs/swagger';

export class OidcSignInOption {
  @ApiProperty({ description: 'Whether single sign-on (OpenID Connect) is set up' })
  enabled: boolean;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'OIDC_DISPLAY_NAME, for the button "Sign in with <name>"; null when not set',
    example: 'Keycloak',
  })
  name: string | null;
}

/** How one may sign in, as the sign-in page reads it. */
export class AuthConfigResponse {
  @ApiProperty({ description: 'Password sign-in, always offered (the local administrator)' })
  password: boolean;

  @ApiProperty({ type: OidcSignInOption })
  oidc: OidcSignInOption;
}
