/**
 * A package's settings as one table (variable, parser, default, one line of doc), from which come the config type,
 * the loader, the defaults and the README rows. Unset or empty takes the default; a computed default reads an
 * earlier entry through `read(entry)`, never the raw environment; every problem (missing, refused) is one line,
 * all collected before failing; a `secret` value is never echoed.
 */
import { EnvValueError, type EnvParser } from './env-parsers.ts';

export type Env = Readonly<Record<string, string | undefined>>;

export interface Setting<T> {
  /** Environment variable name. */
  env: string;
  parse: EnvParser<T>;
  /** Value when unset; a function computes it from entries read before it. Absent: required. */
  default?: T | ((read: ReadSetting, env: Env) => T);
  /** How the default reads in the README when it is computed. */
  defaultDoc?: string;
  /** One line for the README. */
  doc: string;
  /** Never echo the value in a problem line. */
  secret?: boolean;
  /** Read but optional: undefined when unset (no default, not required). */
  optional?: boolean;
}

export type SettingsTable = Record<string, Setting<unknown>>;

/** The value an earlier entry of the same table was read as (a computed default's input). */
export type ReadSetting = <T>(entry: Setting<T>) => T;

/** The configuration type a table produces. */
export type SettingValues<S extends SettingsTable> = {
  -readonly [K in keyof S]: S[K] extends Setting<infer T> ? (S[K]['optional'] extends true ? T | undefined : T) : never;
};

/** Start-up configuration problems, one line each. */
export class SettingsError extends Error {
  override name = 'SettingsError';
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
  }
}

/** Keeps the literal types of a table (identity at run time). */
export function defineSettings<const S extends SettingsTable>(table: S): S {
  return table;
}

/** Values and problems; never throws (except for a table whose computed default reads an entry it lacks). */
export function readSettings<S extends SettingsTable>(table: S, env: Env): { values: SettingValues<S>; problems: string[] } {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  const entries = Object.entries(table);
  let reading = 0;
  // A refused earlier value reads as undefined: its own problem line is reported.
  const read = <T>(entry: Setting<T>): T => values[earlierKey(entries, reading, entry)] as T;
  for (const [key, setting] of entries) {
    const raw = givenValue(setting, env);
    if (raw === undefined) {
      if (typeof setting.default === 'function') {
        try {
          values[key] = (setting.default as (r: ReadSetting, e: Env) => unknown)(read, env);
        } catch (err) {
          if (!(err instanceof EnvValueError)) throw err;
          problems.push(`${setting.env} must be ${err.message}`);
        }
      } else if (setting.default !== undefined) values[key] = setting.default;
      else if (!setting.optional) problems.push(`${setting.env} is required: ${setting.doc}`);
    } else {
      try {
        values[key] = setting.parse(raw);
      } catch (err) {
        const must = err instanceof EnvValueError ? err.message : 'valid';
        problems.push(`${setting.env} must be ${must}${setting.secret ? '' : ` (got '${printable(raw)}')`}`);
      }
    }
    reading += 1;
  }
  return { values: values as SettingValues<S>, problems };
}

/**
 * The key of `entry`'s variable among the entries before the one being read
 * (index `reading`): a computed default reads what this process read, so
 * the entry it reads must be in the table, earlier.
 */
function earlierKey(entries: Array<[string, Setting<unknown>]>, reading: number, entry: Setting<unknown>): string {
  const index = entries.findIndex(([, candidate]) => candidate.env === entry.env);
  const reader = entries[reading]![1].env;
  if (index === -1) throw new Error(`${reader}'s default reads ${entry.env}: add its entry to the table`);
  if (index >= reading) throw new Error(`${reader}'s default reads ${entry.env}: put its entry before ${reader}'s`);
  return entries[index]![0];
}

/** The value of `setting`'s variable, or undefined when it is unset or empty (both take the default). */
function givenValue(setting: Setting<unknown>, env: Env): string | undefined {
  const raw = env[setting.env];
  return raw === '' ? undefined : raw;
}

/** Whether `setting`'s variable is given (an empty value counts as unset, as for its default). */
export function isSet(setting: Setting<unknown>, env: Env): boolean {
  return givenValue(setting, env) !== undefined;
}

/** Values, or a SettingsError listing every problem. */
export function loadSettings<S extends SettingsTable>(table: S, env: Env): SettingValues<S> {
  const { values, problems } = readSettings(table, env);
  if (problems.length > 0) throw new SettingsError(problems);
  return values;
}

/** The keys of a table that have a plain (not computed) default. */
type PlainDefaultKeys<S extends SettingsTable> = {
  [K in keyof S]: S[K] extends { default: infer D } ? (D extends (...args: never[]) => unknown ? never : K) : never;
}[keyof S];

/** The plain defaults of a table, typed. */
export type SettingDefaults<S extends SettingsTable> = { readonly [K in PlainDefaultKeys<S>]: SettingValues<S>[K] };

/** The plain defaults of a table (computed and required ones left out). */
export function defaultsOf<S extends SettingsTable>(table: S): SettingDefaults<S> {
  const out: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(table)) {
    if (setting.default !== undefined && typeof setting.default !== 'function') out[key] = setting.default;
  }
  return out as SettingDefaults<S>;
}

/** README rows: `| \`NAME\` | default | doc |`, one per setting. */
export function settingsMarkdown(table: SettingsTable, usedBy?: string): string[] {
  return Object.values(table).map((setting) => {
    const fallback = setting.defaultDoc ?? (setting.default === undefined ? (setting.optional ? 'unset' : 'required') : `\`${String(setting.default)}\``);
    return `| \`${setting.env}\` | ${fallback} |${usedBy === undefined ? '' : ` ${usedBy} |`} ${setting.doc} |`;
  });
}

/** Control characters shown escaped, long values cut: a problem line stays one line. */
function printable(raw: string): string {
  const shown = JSON.stringify(raw).slice(1, -1);
  return shown.length > 80 ? `${shown.slice(0, 77)}...` : shown;
}
