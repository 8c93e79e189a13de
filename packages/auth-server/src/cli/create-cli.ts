/**
 * The clipanion Cli with every `auth` command registered.
 *
 * Usage: `await createCli().run(['list-clients'])`
 */
import { Builtins, Cli } from 'clipanion';
import { AddClientCommand } from './commands/add-client-command.ts';
import { GetClientCommand } from './commands/get-client-command.ts';
import { KeysCommand } from './commands/keys-command.ts';
import { ListClientsCommand } from './commands/list-clients-command.ts';
import { RemoveClientCommand } from './commands/remove-client-command.ts';
import { RotateSecretCommand } from './commands/rotate-secret-command.ts';
import { SetRedirectUrisCommand } from './commands/set-redirect-uris-command.ts';
import { SetRequireDpopCommand } from './commands/set-require-dpop-command.ts';
import { SetScopesCommand } from './commands/set-scopes-command.ts';
import { SetGrantTypesCommand } from './commands/set-grant-types-command.ts';
import { EventsCommand } from './commands/events-command.ts';
import { KeysRotateCommand } from './commands/keys-rotate-command.ts';
import { TokensRevokeCommand } from './commands/tokens-revoke-command.ts';
import { UsersDeleteCommand, UsersDisableCommand, UsersEnableCommand, UsersListCommand, UsersUnlockCommand } from './commands/users-commands.ts';
import { namePlaceholders } from './option-placeholders.ts';

/** clipanion's Cli with named option values in every help text (option-placeholders.ts). */
class AuthCli extends Cli {
  override usage(...args: Parameters<Cli['usage']>): string {
    return namePlaceholders(super.usage(...args));
  }
}

const COMMANDS = [
  AddClientCommand, GetClientCommand, ListClientsCommand, RemoveClientCommand, SetScopesCommand, SetRedirectUrisCommand, SetGrantTypesCommand, SetRequireDpopCommand, RotateSecretCommand, KeysCommand,
  UsersListCommand, UsersDisableCommand, UsersEnableCommand, UsersUnlockCommand, UsersDeleteCommand, TokensRevokeCommand, EventsCommand, KeysRotateCommand,
];

/** Every name a command answers to (`set-redirect-uri` too). */
export function commandNames(): string[] {
  return COMMANDS.flatMap((command) => (command.paths ?? []).map((path) => path.join(' ')));
}

export function createCli(): Cli {
  const cli = new AuthCli({
    binaryLabel: 'Heroes authorization server administration',
    binaryName: 'auth',
    binaryVersion: '0.1.0',
    enableColors: false,
  });
  cli.register(Builtins.HelpCommand);
  cli.register(Builtins.VersionCommand);
  for (const command of COMMANDS) cli.register(command);
  return cli;
}
