/**
 * What `auth get-client` prints: one labelled line per property, a list
 * continued on the following lines, and what applies when nothing is
 * registered (client-json.ts gives the same in JSON).
 */
import type { ClientSummary } from '../clients/index.ts';
import { clientJson } from './client-json.ts';

/** Usage: `stdout.write(formatClientDetails(await getClient(db, 'web')))` */
export function formatClientDetails(client: ClientSummary): string {
  const json = clientJson(client);
  const rows: Array<[string, string[]]> = [
    ['ID', [json.id]],
    ['Type', [json.type]],
    ['Redirect URIs', json.redirectUris.length > 0 ? json.redirectUris : ['none (no authorization-code flow)']],
    ['Allowed scopes', json.allowedScopes.length > 0 ? [json.allowedScopes.join(' ')] : [`none registered: ${json.effectiveScopes.join(' ')} apply`]],
    ['Allowed origins', json.allowedOrigins.length > 0 ? json.allowedOrigins : json.effectiveOrigins.length > 0 ? [`none registered: ${json.effectiveOrigins.join(' ')} (the redirect URIs' origins) apply`] : ['none']],
    ['Grant types', json.grantTypes.length > 0 ? [json.effectiveGrantTypes.join(' ')] : [json.effectiveGrantTypes.length > 0 ? `none registered: ${json.effectiveGrantTypes.join(' ')} apply` : 'none (introspection only)']],
    ['Created', [json.createdAt]],
    ['Updated', [json.updatedAt]],
  ];
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows
    .flatMap(([label, values]) => values.map((value, index) => `${index === 0 ? `${label}:`.padEnd(width) : ' '.repeat(width)}${value}`))
    .join('\n') + '\n';
}
