/**
 * Every default of the resource server, in one place: the environment
 * settings' defaults (settings.ts) plus the fixed rules below.
 */
import { defaultsOf, libuvPoolSize, readSettings } from '@heroes/platform';
import { HEROES_READ, HEROES_WRITE } from '@heroes/oauth-scopes';
import { SETTINGS } from './settings.ts';

/** Rules of the service that are not settings. */
export const FIXED = Object.freeze({
  /** Longest accepted username, in characters (UTF-16 code units). */
  maxUsernameLength: 150,
  /** Longest accepted password, in UTF-8 bytes: bcrypt reads only the first 72. */
  maxPasswordBytes: 72,
  /** Longest accepted hero name, in characters. */
  maxHeroNameLength: 100,
  /** Scope a token needs to read heroes, when the token carries scopes at all. */
  heroesReadScope: HEROES_READ,
  /** Scope a token needs to change heroes, when the token carries scopes at all. */
  heroesWriteScope: HEROES_WRITE,
  /** Realm named in WWW-Authenticate challenges (RFC 6750 section 3). */
  realm: 'heroes',
  /**
   * Longest a replica answers the whole hero list from memory, in ms
   * (data/hero-list-cache.ts): the bound on seeing another replica's write,
   * kept well inside the revocation bound of 1 s. 0: no list cache.
   */
  heroListCacheMs: 500,
});

/** The computed defaults, as the table computes them from the other defaults (an empty environment). */
const { authServerUrl, publicBaseUrl } = readSettings(SETTINGS, {}).values;

export const defaults = Object.freeze({
  ...defaultsOf(SETTINGS),
  authServerUrl,
  publicBaseUrl,
  passwordHashConcurrency: libuvPoolSize(),
  ...FIXED,
});
