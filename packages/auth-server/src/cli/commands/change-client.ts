/**
 * The body of execute() for the commands that change or remove one existing
 * client (remove-client, set-scopes, set-redirect-uris, rotate-secret):
 * `--id` is required and a built-in client is refused unless `--force` is
 * given, before the command's own work runs.
 */
import type { BaseContext } from 'clipanion';
import { refuseBuiltInClient } from '../built-in-guard.ts';
import { required, runAction, type CommandOutput } from '../run-action.ts';

/** The options such a command declares: `clientIdOption()`, `forceOption()`, `jsonOption()`. */
export interface ClientChangeCommand {
  context: BaseContext;
  id: string | undefined;
  force: boolean;
  json: boolean;
}

/**
 * Usage: `execute() { return changeClient(this, 'change', async (id) => updateClient(id, …)); }`
 */
export function changeClient(command: ClientChangeCommand, action: 'remove' | 'change', work: (id: string) => Promise<CommandOutput>): Promise<number> {
  return runAction(command.context, command.json, async () => {
    const id = required(command.id, 'id');
    refuseBuiltInClient(id, command.force, action);
    return work(id);
  });
}
