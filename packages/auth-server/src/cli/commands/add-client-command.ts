import { SCOPE_MODEL_HELP } from '../scope-model-help.ts';
import { Command, Option } from 'clipanion';
import { addClient, validateAllowedOrigins, generateClientSecret, parseScopes, validateClientId, validateClientSecret, validateRedirectUri } from '../../clients/index.ts';
import { CliError } from '../cli-error.ts';
import { describeClient, secretLine } from '../describe-client.ts';
import { clientIdOption, required, runAction } from '../run-action.ts';
import { writeToDatabase } from '../with-database.ts';

/** `auth add-client`: registers an OAuth 2.0 client. */
export class AddClientCommand extends Command {
  static override paths = [['add-client']];

  static override usage = Command.Usage({
    description: 'Register an OAuth 2.0 client',
    details: `
      Registers a client in the database the servers use (DATABASE_URL, or the embedded PostgreSQL server).

      Without \`--secret\` or \`--generate-secret\` the client is public (no secret; it gets no refresh tokens, and must use PKCE in the code flow). The secret is stored only as a bcrypt hash (cost BCRYPT_COST, default 10) and is never printed, except a generated one, which is printed once. Prefer \`--generate-secret\`: a secret typed on the command line stays in the shell history.

      The client ID is printable ASCII without ':' (at most 255 characters); a secret is 1 to 72 printable ASCII characters (RFC 6749 Appendix A: VSCHAR, space to ~). The redirect URI must be absolute and without fragment (RFC 6749 section 3.1.2). Allowed scopes are a space-separated list of RFC 6749 scope tokens; repeated spaces and repeated scopes are collapsed. Each \`--allowed-origin\` (repeatable) is a web origin (scheme://host[:port]) whose pages may call the token, revoke and introspect endpoints for this client; without one, the redirect URI's origin is allowed.

      ${SCOPE_MODEL_HELP}

      Fails with exit code 1, writing nothing, when the ID is taken ("Client ID 'x' already exists.") or an option is invalid.
    `,
    examples: [
      ['Register a public client', '$0 add-client --id com.hero.app'],
      ['Register a confidential client with a generated secret and scopes', '$0 add-client --id web --generate-secret --allowed-scopes "heroes heroes:write"'],
      ['Register a client for the code flow', '$0 add-client --id web --secret s3cret --redirect-uri https://app.example.com/callback'],
      ['Register a browser app allowed to call the token endpoint from two origins', '$0 add-client --id spa --redirect-uri https://app.example/cb --allowed-origin https://app.example --allowed-origin http://localhost:5173'],
    ],
  });

  id = clientIdOption();
  secret = Option.String('--secret,-s', { description: 'Client secret; omit for a public client' });
  generateSecret = Option.Boolean('--generate-secret', false, { description: 'Generate a random secret and print it once' });
  redirectUri = Option.String('--redirect-uri,-r', { description: 'Redirect URI for the authorization-code flow' });
  allowedScopes = Option.String('--allowed-scopes', { description: 'Space-separated allowed scopes, e.g. "heroes heroes:write"' });
  allowedOrigins = Option.Array('--allowed-origin', [], { description: 'Web origin allowed to call the token endpoint from a browser (repeatable); default: the redirect URI\'s origin' });

  override async execute(): Promise<number> {
    return runAction(this.context, async () => {
      const id = validateClientId(required(this.id, 'id'));
      if (this.secret !== undefined && this.generateSecret) {
        throw new CliError('Options --secret and --generate-secret cannot be used together.');
      }
      const secret = this.generateSecret ? generateClientSecret() : this.secret;
      if (secret !== undefined) validateClientSecret(secret);
      parseScopes(this.allowedScopes);
      if (this.redirectUri !== undefined) validateRedirectUri(this.redirectUri);
      const allowedOrigins = validateAllowedOrigins(this.allowedOrigins);
      const { value: client, where } = await writeToDatabase((db) =>
        addClient(db, { id, secret, redirectUri: this.redirectUri, allowedScopes: this.allowedScopes, allowedOrigins }),
      );
      this.context.stdout.write(`Client '${client.id}' added (${describeClient(client)}) to ${where}.\n`);
      if (this.generateSecret && secret !== undefined) this.context.stdout.write(`${secretLine(secret)}\n`);
    });
  }
}
