/**
 * One settings catalogue: every environment variable is declared by one
 * entry in the repository (an `env: 'NAME'` literal in packages/ * /src or
 * scripts/), and every process's table takes that entry by reference. A
 * command for which a variable may stay unset takes the entry with
 * `optional: true` (or its own default): same variable, parser and doc. A
 * variable both servers read is declared in @heroes/platform's
 * SHARED_SETTINGS (their common package).
 */
import test from 'ava';
import { readSettings, SHARED_SETTINGS, type Setting, type SettingsTable } from '@heroes/platform/settings';
import { SOURCES } from '../../scripts/settings-table.ts';
import { repositorySources } from './_helpers/source-files.ts';

const DECLARATION = /\benv:\s*['"`]([A-Za-z_][A-Za-z0-9_]*)['"`]/g;

/** Variable → the files whose code declares an entry for it; comments (usage examples) left out. */
function declarations(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const { file, text } of repositorySources()) {
    const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    for (const match of code.matchAll(DECLARATION)) found.set(match[1]!, [...(found.get(match[1]!) ?? []), file]);
  }
  return found;
}

test('each environment variable is declared by one entry in the whole repository', (t) => {
  const found = declarations();
  t.true(found.size > 40, 'the scan finds the entries');
  const twice = Object.fromEntries([...found].filter(([, files]) => files.length > 1));
  t.deepEqual(twice, {}, 'take the existing entry by reference (SHARED_SETTINGS or the table that declares it) instead of declaring it again');
});

test('every table takes the one entry: the same parser and doc wherever a variable is read', (t) => {
  const tables: Array<[string, SettingsTable]> = [['SHARED_SETTINGS', SHARED_SETTINGS], ...SOURCES];
  const first = new Map<string, [string, Setting<unknown>]>();
  for (const [owner, table] of tables) {
    for (const entry of Object.values(table)) {
      const known = first.get(entry.env);
      if (!known) {
        first.set(entry.env, [owner, entry]);
        continue;
      }
      t.is(entry.parse, known[1].parse, `${entry.env}: ${owner} parses it unlike ${known[0]}`);
      t.is(entry.doc, known[1].doc, `${entry.env}: ${owner} documents it unlike ${known[0]}`);
    }
  }
});

test('a variable both servers read is the catalogue entry itself', (t) => {
  const [auth, resource] = ['authorization server', 'resource server'].map((name) => SOURCES.find(([user]) => user === name)![1]);
  const shared = new Set<Setting<unknown>>(Object.values(SHARED_SETTINGS));
  const resourceEntries = new Map(Object.values(resource!).map((entry) => [entry.env, entry]));
  const both = Object.values(auth!).filter((entry) => resourceEntries.has(entry.env));
  t.true(both.length > 10, 'the servers share entries');
  for (const entry of both) {
    t.true(shared.has(entry), `${entry.env}: declare it once in SHARED_SETTINGS`);
    t.is(resourceEntries.get(entry.env), entry, `${entry.env}: both servers take the same entry`);
  }
});

test('every process reads its table from an empty environment: each computed default finds the entries it reads', (t) => {
  // A computed default that reads an entry its table lacks throws (a programming error, not a
  // problem line): caught here for every table, not only when that process first starts.
  for (const [user, table] of SOURCES) {
    t.notThrows(() => readSettings(table, {}), user);
  }
});
