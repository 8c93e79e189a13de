/**
 * `auth users list|disable|enable|unlock|delete` (docs/operations.md,
 * Administration): what a Keycloak administrator does first to an account.
 * An unknown username fails with exit code 1 and one line.
 */
import { Command, Option } from 'clipanion';
import { deleteUser, describeRevoked, disableUser, enableUser, listUsers, unlockUser, type UserSummary } from '../../users/user-admin.ts';
import { jsonOption, runAction } from '../run-action.ts';
import { withDatabase, writeToDatabase } from '../with-database.ts';

function userJson(user: UserSummary) {
  return {
    username: user.username,
    id: user.id,
    createdAt: user.createdAt.toISOString(),
    disabled: user.disabledAt !== null,
    disabledAt: user.disabledAt?.toISOString() ?? null,
    lockedUntil: user.lockedUntil?.toISOString() ?? null,
    activeTokens: user.activeTokens,
  };
}

function formatUserTable(users: UserSummary[]): string {
  if (users.length === 0) return 'No users.\n';
  const rows = users.map((user) => [
    user.username,
    user.disabledAt ? 'disabled' : user.lockedUntil ? `locked until ${user.lockedUntil.toISOString()}` : 'active',
    String(user.activeTokens),
    user.createdAt.toISOString(),
  ]);
  const header = ['USERNAME', 'STATE', 'TOKENS', 'CREATED'];
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
  return [header, ...rows].map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n';
}

/** A command on one account: its username argument and `--json`. */
abstract class OneUserCommand extends Command {
  username = Option.String({ name: 'username' });
  json = jsonOption();
}

export class UsersListCommand extends Command {
  static override paths = [['users', 'list']];

  static override usage = Command.Usage({
    category: 'Administration',
    description: 'List the users: state (active, disabled, locked by the login throttle) and live access tokens',
    details: `
      One row per user, ordered by username. Passwords and their hashes are never shown.

      With \`--json\`, prints an array of \`{ username, id, createdAt, disabled, disabledAt, lockedUntil, activeTokens }\`.
    `,
    examples: [['List users', '$0 users list'], ['As JSON', '$0 users list --json']],
  });

  json = jsonOption();

  override async execute(): Promise<number> {
    return runAction(this.context, this.json, async () => {
      const users = await withDatabase((db) => listUsers(db));
      return { text: formatUserTable(users), json: users.map(userJson) };
    });
  }
}

export class UsersDisableCommand extends OneUserCommand {
  static override paths = [['users', 'disable']];

  static override usage = Command.Usage({
    category: 'Administration',
    description: 'Disable a user: sign-in refused, every token and grant revoked on every replica',
    details: `
      The user can no longer sign in (password grant, login form: the same answer as a wrong password), and every access token, refresh token, code and grant issued to them is deleted in the same transaction; resource servers drop what they cached on the notice (PostgreSQL NOTIFY), so the tokens are refused everywhere at once. Records \`user.disabled\`. Disabling a disabled user changes nothing.

      With \`--json\`, prints \`{ username, changed, revoked: { accessTokens, refreshTokens, authorizationCodes } }\`.
    `,
    examples: [['Disable a user', '$0 users disable bob']],
  });

  override async execute(): Promise<number> {
    return runAction(this.context, this.json, async () => {
      const { value: { changed, revoked }, where } = await writeToDatabase((db) => disableUser(db, this.username));
      const text = changed ? `User '${this.username}' disabled (${describeRevoked(revoked)}) in ${where}.\n` : `User '${this.username}' was already disabled.\n`;
      return { text, json: { username: this.username, changed, revoked } };
    });
  }
}

export class UsersEnableCommand extends OneUserCommand {
  static override paths = [['users', 'enable']];

  static override usage = Command.Usage({
    category: 'Administration',
    description: 'Enable a disabled user: sign-in allowed again',
    details: `
      Tokens revoked when the user was disabled stay revoked. Records \`user.enabled\`.

      With \`--json\`, prints \`{ username, changed }\`.
    `,
    examples: [['Enable a user', '$0 users enable bob']],
  });

  override async execute(): Promise<number> {
    return runAction(this.context, this.json, async () => {
      const { value: { changed }, where } = await writeToDatabase((db) => enableUser(db, this.username));
      const text = changed ? `User '${this.username}' enabled in ${where}.\n` : `User '${this.username}' was not disabled.\n`;
      return { text, json: { username: this.username, changed } };
    });
  }
}

export class UsersUnlockCommand extends OneUserCommand {
  static override paths = [['users', 'unlock']];

  static override usage = Command.Usage({
    category: 'Administration',
    description: "Clear a user's login throttle (failed-login lockout), from every address",
    details: `
      Deletes the account's failure counters (its own and those of its known addresses), so the next sign-in is checked at once. Per-address limits of other clients' addresses are not touched. Records \`user.unlocked\`.

      With \`--json\`, prints \`{ username, cleared }\` (counters removed).
    `,
    examples: [['Unlock a user', '$0 users unlock bob']],
  });

  override async execute(): Promise<number> {
    return runAction(this.context, this.json, async () => {
      const { value: { cleared }, where } = await writeToDatabase((db) => unlockUser(db, this.username));
      return { text: `User '${this.username}' unlocked (${cleared} throttle counter(s) cleared) in ${where}.\n`, json: { username: this.username, cleared } };
    });
  }
}

export class UsersDeleteCommand extends OneUserCommand {
  static override paths = [['users', 'delete']];

  static override usage = Command.Usage({
    category: 'Administration',
    description: 'Delete a user and everything issued to them',
    details: `
      Deletes the user with every access token, refresh token, code and grant issued to them (one transaction); resource servers are told at once. Heroes are shared and stay. Records \`user.deleted\`.

      With \`--json\`, prints \`{ username, revoked: { accessTokens, refreshTokens, authorizationCodes } }\`.
    `,
    examples: [['Delete a user', '$0 users delete bob']],
  });

  override async execute(): Promise<number> {
    return runAction(this.context, this.json, async () => {
      const { value: { revoked }, where } = await writeToDatabase((db) => deleteUser(db, this.username));
      return { text: `User '${this.username}' deleted (${describeRevoked(revoked)}) from ${where}.\n`, json: { username: this.username, revoked } };
    });
  }
}
