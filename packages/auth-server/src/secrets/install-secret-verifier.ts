/**
 * Makes the provider compare client secrets against the stored bcrypt hash
 * (the `client_secret` metadata holds the hash, see toClientMetadata)
 * through the caching verifier, instead of the library's plain equality.
 */
import type Provider from 'oidc-provider';
import type { SecretVerifier } from './secret-cache.ts';

interface ClientWithSecret {
  clientId: string;
  clientSecret?: string;
}

export function installSecretVerifier(provider: Provider, verify: SecretVerifier): void {
  const proto = provider.Client.prototype as unknown as {
    compareClientSecret(this: ClientWithSecret, actual: string): Promise<boolean>;
  };
  proto.compareClientSecret = function compareClientSecret(actual) {
    return verify(this.clientId, this.clientSecret, actual);
  };
}
