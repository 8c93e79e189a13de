import path from 'node:path';
import test from 'ava';
import { repoRoot } from '@heroes/test-kit';
import { resolveDataDir } from '../../src/local-state/index.ts';

test('the data folder is HEROES_DATA_DIR, made absolute, else <repo>/.data', (t) => {
  t.is(resolveDataDir({}), path.join(repoRoot, '.data'));
  t.is(resolveDataDir({ HEROES_DATA_DIR: '' }), path.join(repoRoot, '.data'));
  t.is(resolveDataDir({ HEROES_DATA_DIR: '/srv/heroes' }), '/srv/heroes');
  t.is(resolveDataDir({ HEROES_DATA_DIR: 'state/heroes' }), path.join(process.cwd(), 'state/heroes'));
});
