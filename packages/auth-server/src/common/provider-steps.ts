/**
 * What the endpoints oidc-provider answers share: the hand-over to the library (their last step), the database-outage
 * mapper (one listener of its `server_error` event for all), the steps of every client-authenticated endpoint and the
 * method table each ends with.
 */
import type { Middleware } from 'koa';
import mount from 'koa-mount';
import type Provider from 'oidc-provider';
import type { PrismaClient } from '@heroes/db';
import { dispatchByMethod, type MethodTable } from '@heroes/http-kit';
import { createCorsOnErrors } from './cors-on-errors.ts';
import { createDatabaseOutageMapper } from './database-outage.ts';
import { createClientAuthNormalizer } from './normalize-client-auth.ts';
import { addPragmaNoCache } from './pragma-no-cache.ts';
import type { RevocationNotifier } from '../notify/revocation-notifier.ts';
import type { RememberedSecrets } from '../clients/secret-cache.ts';

export interface ProviderEndpointDeps {
  db: PrismaClient;
  provider: Provider;
  notify: RevocationNotifier;
  /** PUBLIC_BASE_URL: the issuer, the base of every advertised URL. */
  publicBaseUrl: string;
  /** The client that may introspect any token (RESOURCE_SERVER_CLIENT_ID). */
  resourceServerClientId: string;
  secrets: RememberedSecrets;
}

export interface ProviderSteps {
  /** The library answers (the last step of every provider endpoint). */
  toProvider: Middleware;
  /** A database outage inside the library or the steps after this one → 503 (common/database-outage.ts). */
  mapDatabaseOutage: Middleware;
  /**
   * The answer of a client-authenticated endpoint, on its way out: CORS
   * headers on our own error answers for a browser origin the client
   * allows (the library sets them on its own), then `Pragma: no-cache`.
   */
  clientAnswers: readonly Middleware[];
  /**
   * Client authentication normalized (`Basic base64(id:)` is a public
   * client, a malformed header → 401, WWW-Authenticate on 401s), after the
   * form was read (common/normalize-client-auth.ts).
   */
  normalizeClientAuth: Middleware;
}

export function createProviderSteps(deps: ProviderEndpointDeps): ProviderSteps {
  return {
    toProvider: mount(deps.provider),
    mapDatabaseOutage: createDatabaseOutageMapper(deps.provider),
    clientAnswers: [createCorsOnErrors(deps.db), addPragmaNoCache],
    normalizeClientAuth: createClientAuthNormalizer(deps.publicBaseUrl),
  };
}

/**
 * The methods of a provider endpoint (RFC 9110): each method of `table`
 * runs its steps; OPTIONS goes to the library, which answers CORS
 * preflights (any other OPTIONS it leaves → 204 with `Allow`); any other
 * method → 405 with `Allow` naming `allow` (the library routes only its
 * own methods and would leave the rest a 404).
 */
export function providerMethods(steps: ProviderSteps, table: MethodTable, allow: readonly string[]): Middleware {
  return dispatchByMethod([], table, { options: [steps.mapDatabaseOutage, steps.toProvider], allow });
}
