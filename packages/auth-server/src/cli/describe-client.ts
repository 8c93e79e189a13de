/**
 * One-line descriptions of clients for command output. Never shows a
 * secret or hash: ClientSummary does not carry them.
 */
import { HERO_SCOPES } from '@heroes/oauth-scopes';
import { formatScopes, type ClientSummary } from '../clients/index.ts';

/** `confidential, redirect URI(s) https://..., scopes: a b[, origins: https://...]` */
export function describeClient(client: ClientSummary): string {
  const origins = client.allowedOrigins.length > 0 ? [`origins: ${client.allowedOrigins.join(' ')}`] : [];
  return [
    client.isPublic ? 'public' : 'confidential',
    client.redirectUris.length === 0 ? 'no redirect URI' : `redirect URI${client.redirectUris.length > 1 ? 's' : ''} ${client.redirectUris.join(' ')}`,
    // Registered without scopes, a client is allowed the hero scopes (scopes/allowed-scopes.ts): say so.
    client.allowedScopes.length > 0 ? `scopes: ${formatScopes(client.allowedScopes)}` : `default scopes: ${HERO_SCOPES.join(' ')}`,
    ...origins,
    ...(client.grantTypes.length > 0 ? [`grant types: ${client.grantTypes.join(' ')}`] : []),
  ].join(', ');
}

/** The line that carries a new secret, the only time it is printed. */
export function secretLine(secret: string): string {
  return `Client secret (shown only once; store it now): ${secret}`;
}
