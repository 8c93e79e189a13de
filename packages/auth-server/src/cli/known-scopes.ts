/**
 * The scope catalogue check of add-client and set-scopes: a scope the
 * service does not know (isServiceScope in @heroes/oauth-scopes) is almost
 * always a typo, and a client allowed only a typo can never call the hero
 * API. Registering one on purpose takes `--allow-unknown-scope`.
 */
import { Option } from 'clipanion';
import { isServiceScope, SERVICE_SCOPES_DESCRIPTION } from '@heroes/oauth-scopes';
import { CliError } from './cli-error.ts';

const ALLOW_UNKNOWN_SCOPE = '--allow-unknown-scope';

export function allowUnknownScopeOption() {
  return Option.Boolean(ALLOW_UNKNOWN_SCOPE, false, { description: 'Accept scopes the service does not know (other than openid and the hero scopes)' });
}

/** Throws `Unknown scope 'x': ...` naming every unknown one, unless allowed. Usage: `checkKnownScopes(['heroes:read'], false)` */
export function checkKnownScopes(scopes: readonly string[], allowUnknown: boolean): void {
  const unknown = scopes.filter((scope) => !isServiceScope(scope));
  if (unknown.length === 0 || allowUnknown) return;
  const names = unknown.map((scope) => `'${scope}'`).join(', ');
  throw new CliError(
    `Unknown scope${unknown.length > 1 ? 's' : ''} ${names}: this service knows ${SERVICE_SCOPES_DESCRIPTION}. Pass ${ALLOW_UNKNOWN_SCOPE} to register ${unknown.length > 1 ? 'them' : 'it'} anyway.`,
    { code: 'unknown_scope' },
  );
}
