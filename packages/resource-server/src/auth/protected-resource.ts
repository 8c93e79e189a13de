/**
 * The hero API as an OAuth protected resource (RFC 9728): the identifier
 * tokens must name in `aud` (RFC 8707; the one rule both servers share,
 * @heroes/oauth-scopes resource-indicator.ts), the realm and the URL of its
 * metadata document that every challenge carries (challenges.ts), all
 * derived from PUBLIC_BASE_URL, so behind a proxy they name the public URL.
 *
 * Usage: `const resource = describeProtectedResource(config.publicBaseUrl, config.realm)`
 */
import { protectedResourceMetadataUrl, resourceIdentifier } from '@heroes/oauth-scopes';

export interface ProtectedResource {
  /** RFC 6750 section 3 `realm`. */
  realm: string;
  /** The resource identifier (RFC 9728 `resource`, the `aud` a token must include). */
  identifier: string;
  /** Where its metadata document is (RFC 9728 section 5.1 `resource_metadata`). */
  metadataUrl: string;
}

export function describeProtectedResource(publicBaseUrl: string, realm: string): ProtectedResource {
  const identifier = resourceIdentifier(publicBaseUrl);
  return { realm, identifier, metadataUrl: protectedResourceMetadataUrl(identifier) };
}
