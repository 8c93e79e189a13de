/**
 * Every endpoint answered by oidc-provider, each with its own step table (one folder each); `introspect` answers an
 * introspection (fastIntrospection in production). The library's other routes are never reached: only these paths are
 * handed to it.
 */
import type { Endpoint } from '../common/endpoint.ts';
import { discoveryEndpoints, jwksEndpoint } from './discovery/discovery-endpoints.ts';
import { introspectionEndpoint, type IntrospectionAnswer } from './introspection/introspection-endpoint.ts';
import { createProviderSteps, type ProviderEndpointDeps } from '../common/provider-steps.ts';
import { revocationEndpoint } from './revocation/revocation-endpoint.ts';
import { tokenEndpoint } from './token/token-endpoint.ts';

export function createProviderEndpoints(deps: ProviderEndpointDeps, introspect: IntrospectionAnswer): Endpoint[] {
  const shared = createProviderSteps(deps);
  return [
    tokenEndpoint(deps, shared),
    revocationEndpoint(shared),
    introspectionEndpoint(deps, shared, introspect),
    ...discoveryEndpoints(deps, shared),
    jwksEndpoint(shared),
  ];
}
