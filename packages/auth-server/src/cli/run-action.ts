/**
 * The body of every command's execute(): runs the action; an expected failure is one line on stderr and exit 1
 * (a stack trace only with AUTH_DEBUG=1). With `--json` the result is one JSON document on stdout and a failure one
 * JSON line on stderr, `{"error": code, "message": line}`. Also the pieces the client commands share.
 */
import { Option, type BaseContext } from 'clipanion';
import type { PrismaClient } from '@heroes/db';
import type { ClientSummary } from '../clients/index.ts';
import { CliError, errorCode, errorLine } from './cli-error.ts';
import { clientJson } from './client-json.ts';
import { describeClient } from './describe-client.ts';
import { writeToDatabase } from './with-database.ts';
import { cliSetting } from './cli-settings.ts';

/** What a command prints on success: a line of text, or with --json a JSON value. */
export interface CommandOutput {
  text: string;
  json: unknown;
}

/**
 * Usage: `async execute() { return runAction(this.context, this.json, async () => ({ text, json })); }`
 */
export async function runAction(context: BaseContext, asJson: boolean, action: () => Promise<CommandOutput>): Promise<number> {
  try {
    const output = await action();
    context.stdout.write(asJson ? `${JSON.stringify(output.json, null, 2)}\n` : output.text);
    return 0;
  } catch (err) {
    context.stderr.write(asJson ? `${errorJson(errorCode(err), errorLine(err))}\n` : `${errorLine(err)}\n`);
    if (debugWanted(context)) context.stderr.write(`${debugStack(err)}\n`);
    return 1;
  }
}

/** AUTH_DEBUG; a value it refuses is one more line on stderr, never a silent "off". */
function debugWanted(context: BaseContext): boolean {
  try {
    return cliSetting('debug');
  } catch (err) {
    context.stderr.write(`${errorLine(err)}\n`);
    return false;
  }
}

/** The one-line JSON of a failure: `{"error":"client_not_found","message":"Client ID 'x' does not exist."}` */
export function errorJson(error: string, message: string): string {
  return JSON.stringify({ error, message });
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

/** The `--json` option every command takes. */
export function jsonOption() {
  return Option.Boolean('--json', false, { description: 'Print JSON on stdout (a failure: JSON on stderr)' });
}

/** Applies `change` to client `id`: `Client 'id' updated (…) in <database>.`, or `{ "client": {…} }`. */
export async function updateClient(id: string, change: (db: PrismaClient) => Promise<ClientSummary>): Promise<CommandOutput> {
  const { value: client, where } = await writeToDatabase(change);
  return { text: `Client '${id}' updated (${describeClient(client)}) in ${where}.\n`, json: { client: clientJson(client) } };
}
