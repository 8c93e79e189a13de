/**
 * The body of every command's execute(): runs the action, turns an expected
 * failure into one line on stderr and exit code 1. A stack trace is printed
 * only with AUTH_DEBUG=1. Also the pieces the client commands share.
 */
import { Option, type BaseContext } from 'clipanion';
import type { PrismaClient } from '@heroes/db';
import type { ClientSummary } from '../clients/index.ts';
import { CliError, errorLine } from './cli-error.ts';
import { describeClient } from './describe-client.ts';
import { writeToDatabase } from './with-database.ts';

/** Usage: `async execute() { return runAction(this.context, async () => { ... }); }` */
export async function runAction(context: BaseContext, action: () => Promise<void>): Promise<number> {
  try {
    await action();
    return 0;
  } catch (err) {
    context.stderr.write(`${errorLine(err)}\n`);
    if (process.env.AUTH_DEBUG === '1') context.stderr.write(`${debugStack(err)}\n`);
    return 1;
  }
}

/** Throws the Aqueduct CLI's `Option --<name> required.` when `value` is missing. */
export function required(value: string | undefined, name: string): string {
  if (value === undefined) throw new CliError(`Option --${name} required.`);
  return value;
}

function debugStack(err: unknown): string {
  const cause = (err as { cause?: unknown }).cause ?? err;
  return cause instanceof Error ? (cause.stack ?? cause.message) : String(cause);
}

/** The `--id` option every client command takes (the Aqueduct CLI's name). */
export function clientIdOption() {
  return Option.String('--id,-i', { description: 'Client identifier (required)' });
}

/** Applies `change` to client `id` and prints `Client 'id' updated (…) in <database>.` */
export async function updateClient(context: BaseContext, id: string, change: (db: PrismaClient) => Promise<ClientSummary>): Promise<void> {
  const { value: client, where } = await writeToDatabase(change);
  context.stdout.write(`Client '${id}' updated (${describeClient(client)}) in ${where}.\n`);
}
