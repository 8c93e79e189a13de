/** OAuth helpers for tests against the real authorization server. */
import { basic } from '@heroes/test-kit';

/** Clients written straight into the database, as the CLI stores them: the shared test kit's helper. */
export { addClient } from '@heroes/test-kit';

/** `Authorization: Basic` for a client id and secret (RFC 6749 section 2.3.1), from the shared test kit. */
export { basic };

/** A token by the password grant (throws unless 200): the shared test kit's helper. */
export { passwordToken, type TokenResponse } from '@heroes/test-kit';

export async function revoke(baseUrl: string, client: { id: string; secret: string }, token: string): Promise<number> {
  const res = await fetch(`${baseUrl}/auth/revoke`, {
    method: 'POST',
    headers: { authorization: basic(client.id, client.secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
  });
  await res.arrayBuffer();
  return res.status;
}
