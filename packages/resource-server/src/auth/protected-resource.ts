/**
 * The hero API as a protected resource (RFC 9728): the identifier tokens must name in `aud` (RFC 8707,
 * @heroes/oauth-scopes' rule), the realm and the metadata URL every challenge carries, all from PUBLIC_BASE_URL so
 * behind a proxy they name the public URL.
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
