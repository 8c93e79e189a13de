/**
 * `auth add-client`: registers an OAuth 2.0 client. The secret is stored only as a bcrypt hash and printed once;
 * without one the client is public (PKCE, no refresh tokens). Every option is checked before anything is written.
 */
import { SCOPE_MODEL_HELP } from '../scope-model-help.ts';
import { Command, Option } from 'clipanion';
import { addClient, validateAllowedOrigins, generateClientSecret, parseScopes, validateClientId, validateClientSecret, validateRedirectUris } from '../../clients/index.ts';
import { GRANT_TYPES_HELP, grantTypesOption, readGrantTypes } from '../grant-types-option.ts';
import { CliError } from '../cli-error.ts';
import { clientJson } from '../client-json.ts';
import { describeClient, secretLine } from '../describe-client.ts';
import { allowUnknownScopeOption, checkKnownScopes } from '../known-scopes.ts';
import { clientIdOption, jsonOption, required, runAction } from '../run-action.ts';
import { writeToDatabase } from '../with-database.ts';

export class AddClientCommand extends Command {
  static override paths = [['add-client']];

  static override usage = Command.Usage({
    description: 'Register an OAuth 2.0 client',
    details: `
      Registers a client in the database the servers use (DATABASE_URL, or the embedded PostgreSQL server).

      Without \`--secret\` or \`--generate-secret\` the client is public (no secret; it gets no refresh tokens, and must use PKCE in the code flow). The secret is stored only as a bcrypt hash (cost BCRYPT_COST, default 10) and is never printed, except a generated one, which is printed once (with \`--json\`, as \`secret\`). Prefer \`--generate-secret\`: a secret typed on the command line stays in the shell history.

      The client ID is printable ASCII without ':' (at most 255 characters); a secret is 1 to 72 printable ASCII characters (RFC 6749 Appendix A: VSCHAR, space to ~). Each \`--redirect-uri\` (repeatable, at most 50) must be absolute and without fragment (RFC 6749 section 3.1.2); an authorization request must name one of them exactly. Allowed scopes are a space-separated list of RFC 6749 scope tokens (at most 50, each at most 256 characters); repeated spaces and repeated scopes are collapsed. A scope other than openid, heroes, heroes:read, heroes:write and their sub-scopes is refused unless \`--allow-unknown-scope\` is given. Each \`--allowed-origin\` (repeatable) is a web origin (scheme://host[:port]) whose pages may call the token, revoke and introspect endpoints for this client; without one, the redirect URIs' origins are allowed. With \`--require-dpop\` every token request of the client must carry a DPoP proof (RFC 9449): its tokens are always sender-constrained (400 \`invalid_dpop_proof\` without a proof); change it later with \`auth set-require-dpop\`.

      ${GRANT_TYPES_HELP}

      ${SCOPE_MODEL_HELP}

      Fails with exit code 1, writing nothing, when the ID is taken ("Client ID 'x' already exists.") or an option is invalid.
    `,
    examples: [
      ['Register a public client', '$0 add-client --id com.hero.app'],
      ['Register a confidential client with a generated secret and scopes', '$0 add-client --id web --generate-secret --allowed-scopes "heroes heroes:write"'],
      ['Register a client for the code flow', '$0 add-client --id web --secret s3cret --redirect-uri https://app.example.com/callback'],
      ['Register a client with two redirect URIs, printing JSON', '$0 add-client --id web --generate-secret --redirect-uri https://app.example.com/cb --redirect-uri http://127.0.0.1:8080/cb --json'],
      ['Register a service that calls the hero API as itself (client credentials)', '$0 add-client --id reports --generate-secret --grant-types client_credentials --allowed-scopes heroes:read'],
      ['Register a client whose tokens are always DPoP-bound', '$0 add-client --id mobile --redirect-uri com.example.app:/cb --require-dpop'],
      ['Register a browser app allowed to call the token endpoint from two origins', '$0 add-client --id spa --redirect-uri https://app.example/cb --allowed-origin https://app.example --allowed-origin http://localhost:5173'],
    ],
  });

  id = clientIdOption();
  secret = Option.String('--secret,-s', { description: 'Client secret; omit for a public client' });
  generateSecret = Option.Boolean('--generate-secret', false, { description: 'Generate a random secret and print it once' });
  redirectUris = Option.Array('--redirect-uri,-r', [], { description: 'Redirect URI for the authorization-code flow (repeatable)' });
  allowedScopes = Option.String('--allowed-scopes', { description: 'Space-separated allowed scopes, e.g. "heroes heroes:write"' });
  allowUnknownScope = allowUnknownScopeOption();
  allowedOrigins = Option.Array('--allowed-origin', [], { description: 'Web origin allowed to call the token endpoint from a browser (repeatable); default: the redirect URIs\' origins' });
  grantTypes = grantTypesOption();
  requireDpop = Option.Boolean('--require-dpop', false, { description: 'Every token request must carry a DPoP proof (RFC 9449): sender-constrained tokens only' });
  json = jsonOption();

  override async execute(): Promise<number> {
    return runAction(this.context, this.json, async () => {
      const id = validateClientId(required(this.id, 'id'));
      if (this.secret !== undefined && this.generateSecret) {
        throw new CliError('Options --secret and --generate-secret cannot be used together.');
      }
      const secret = this.generateSecret ? generateClientSecret() : this.secret;
      if (secret !== undefined) validateClientSecret(secret);
      const allowedScopes = parseScopes(this.allowedScopes);
      checkKnownScopes(allowedScopes, this.allowUnknownScope);
      const redirectUris = validateRedirectUris(this.redirectUris);
      const allowedOrigins = validateAllowedOrigins(this.allowedOrigins);
      const grantTypes = readGrantTypes(this.grantTypes, { confidential: secret !== undefined });
      const { value: client, where } = await writeToDatabase((db) =>
        addClient(db, { id, secret, redirectUris, allowedScopes, allowedOrigins, grantTypes, requireDpop: this.requireDpop }),
      );
      const shownSecret = this.generateSecret ? secret : undefined;
      return {
        text: `Client '${client.id}' added (${describeClient(client)}) to ${where}.\n${shownSecret === undefined ? '' : `${secretLine(shownSecret)}\n`}`,
        json: { client: clientJson(client), ...(shownSecret === undefined ? {} : { secret: shownSecret }) },
      };
    });
  }
}
