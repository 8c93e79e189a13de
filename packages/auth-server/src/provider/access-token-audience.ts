/**
 * The audience of every access token (RFC 8707, RFC 7662 `aud`), the hero API's identifier, set as the token is
 * stored, whatever the grant: a request naming another resource is refused before any token, one naming none gets it
 * too, and a token stored before audiences existed is read back with it. Documented API only: the `AccessToken`
 * adapter is wrapped, as provider/access-token-scope.ts does for the scope.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { AdapterFactory } from './access-token-scope.ts';

/** `adapters`, with every access token stored and read with the audience `resource`. */
export function withAccessTokenAudience(adapters: AdapterFactory, resource: string): AdapterFactory {
  return function createAudienceAdapter(model: string): Adapter {
    const adapter = adapters(model);
    return model === 'AccessToken' ? new AudienceAccessTokens(adapter, resource) : adapter;
  };
}

/** The audience of a stored access token payload: its own, or the hero API for one stored without. */
export function storedAudience(payload: Record<string, unknown>, resource: string): unknown {
  return payload['aud'] ?? resource;
}

class AudienceAccessTokens implements Adapter {
  constructor(private readonly stored: Adapter, private readonly resource: string) {}

  upsert(id: string, payload: AdapterPayload, expiresIn: number) {
    payload.aud = this.resource;
    return this.stored.upsert(id, payload, expiresIn);
  }

  async find(id: string) {
    const payload = await this.stored.find(id);
    if (payload) payload.aud = storedAudience(payload, this.resource) as string;
    return payload;
  }

  findByUserCode(userCode: string) { return this.stored.findByUserCode(userCode); }
  findByUid(uid: string) { return this.stored.findByUid(uid); }
  consume(id: string) { return this.stored.consume(id); }
  destroy(id: string) { return this.stored.destroy(id); }
  revokeByGrantId(grantId: string) { return this.stored.revokeByGrantId(grantId); }
}
