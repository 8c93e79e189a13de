/**
 * The `--grant-types` option of add-client and set-grant-types, and the
 * help text both print (the rule itself: clients/grant-types.ts).
 */
import { Option } from 'clipanion';
import { checkGrantTypesForKind, GRANT_TYPES, parseGrantTypes, type GrantType } from '../clients/index.ts';

export const GRANT_TYPES_HELP = `Grant types (\`--grant-types\`, a space-separated list of ${GRANT_TYPES.join(', ')}) say which grants the client may use at the token endpoint; any other is answered 400 unauthorized_client before a password is checked. Without it the default of the client's kind applies: with a secret password, authorization_code and refresh_token; without one password and authorization_code. A public client can never use refresh_token or client_credentials. client_credentials (RFC 6749 section 4.4) gives the client tokens of its own, with no user, within its allowed scopes.`;

export function grantTypesOption() {
  return Option.String('--grant-types', { description: `Space-separated grant types (${GRANT_TYPES.join(', ')}); default: by the client's kind` });
}

/** The option's value checked for the client's kind; undefined → [] (the default). */
export function readGrantTypes(value: string | undefined, { confidential }: { confidential: boolean }): GrantType[] {
  const grantTypes = parseGrantTypes(value ?? '');
  checkGrantTypesForKind(grantTypes, confidential);
  return grantTypes;
}
