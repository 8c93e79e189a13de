/**
 * Names the value of each option in help output: clipanion writes every
 * option value as `#0` (`--id #0`); we write `--id <id>`.
 */
const PLACEHOLDERS: Readonly<Record<string, string>> = {
  '--id': 'id',
  '--secret': 'secret',
  '--redirect-uri': 'uri',
  '--allowed-scopes': 'scopes',
  '--allowed-origin': 'origin',
  '--grant-types': 'grants',
  '--user': 'username',
  '--client': 'id',
  '--type': 'type',
  '--since': 'when',
  '--limit': 'count',
};

const OPTION_VALUE = /(--[a-z][a-z-]*)((?:,-{1,2}[a-z][a-z-]*)*) #0/g;

/**
 * `[--id,-i #0]` → `[--id,-i <id>]`; an option not listed gets `<value>`.
 * In the option table (`  --id,-i #0      Client identifier`) the padding
 * shrinks by what the name added, so descriptions stay in one column.
 */
export function namePlaceholders(usage: string): string {
  return usage.split('\n').map((line) => {
    const row = /^(\s+)(--\S+(?: #0)?)(\s{2,})(\S.*)$/.exec(line);
    if (!row) return line.replace(OPTION_VALUE, named);
    const [, indent = '', definition = '', padding = '', description = ''] = row;
    const renamed = definition.replace(OPTION_VALUE, named);
    return `${indent}${renamed}${' '.repeat(Math.max(2, padding.length - (renamed.length - definition.length)))}${description}`;
  }).join('\n');
}

function named(_match: string, name: string, aliases: string): string {
  return `${name}${aliases} <${PLACEHOLDERS[name] ?? 'value'}>`;
}
