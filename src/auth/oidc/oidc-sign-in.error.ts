/**
 * A single sign-on that cannot be completed: its message is the sentence the sign-in page shows
 * (the browser is sent there, not answered an error body).
 */
export class OidcSignInError extends Error {
  override readonly name = 'OidcSignInError';
}
