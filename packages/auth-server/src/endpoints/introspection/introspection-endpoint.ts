/**
 * POST /auth/introspect (RFC 7662), steps in order below ("out": acts on the answer on its way back): CORS on our
 * errors and `Pragma: no-cache` (out), methods, outages → 503 (out), the form read by http-kit, client authentication
 * normalized (out), a public client → 401 (out), then the answer: oidc-provider's (libraryIntrospection; which tokens a
 * client may see: library/create-provider.ts) or the fast path before it (fast-introspection.ts), byte for byte alike.
 */
import type { Middleware } from 'koa';
import { ROUTES } from '../../common/routes.ts';
import { requireConfidentialIntrospection } from './introspection-guard.ts';
import { readProviderForm } from '../../library/read-provider-form.ts';
import type { Endpoint } from '../../common/endpoint.ts';
import { providerMethods, type ProviderEndpointDeps, type ProviderSteps } from '../../common/provider-steps.ts';

/** The last steps of an introspection, once the caller is authenticated: they answer it. */
export type IntrospectionAnswer = (deps: ProviderEndpointDeps, shared: ProviderSteps) => readonly Middleware[];

/** oidc-provider answers every introspection. */
export const libraryIntrospection: IntrospectionAnswer = (_deps, shared) => [shared.toProvider];

export function introspectionEndpoint(deps: ProviderEndpointDeps, shared: ProviderSteps, answer: IntrospectionAnswer): Endpoint {
  return {
    path: ROUTES.introspection,
    steps: [
      ...shared.clientAnswers,
      providerMethods(shared, {
        POST: [
          shared.mapDatabaseOutage,
          readProviderForm,
          shared.normalizeClientAuth,
          requireConfidentialIntrospection,
          ...answer(deps, shared),
        ],
      }, ['POST']),
    ],
  };
}
