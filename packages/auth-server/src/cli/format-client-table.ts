/**
 * The `list-clients` table: ID, TYPE, GRANT TYPES (what applies), REDIRECT URIS, ALLOWED SCOPES, with
 * columns padded to their widest cell, lists space-separated and '-' for
 * an empty cell.
 */
import { formatScopes, type ClientSummary } from '../clients/index.ts';
import { servedGrantTypes } from './client-json.ts';

/** Usage: `stdout.write(formatClientTable(await listClients(db)))` */
export function formatClientTable(clients: readonly ClientSummary[]): string {
  if (clients.length === 0) return 'No clients registered.\n';
  const rows = [
    ['ID', 'TYPE', 'GRANT TYPES', 'REDIRECT URIS', 'ALLOWED SCOPES'],
    ...clients.map((c) => [
      c.id,
      c.isPublic ? 'public' : 'confidential',
      servedGrantTypes(c).join(' ') || '-',
      c.redirectUris.length > 0 ? c.redirectUris.join(' ') : '-',
      c.allowedScopes.length > 0 ? formatScopes(c.allowedScopes) : '-',
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n';
}
