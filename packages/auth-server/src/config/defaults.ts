/**
 * Every default of the authorization server, in one place: the environment
 * settings' defaults (settings.ts) plus the fixed rules below. Each can be
 * overridden by passing a partial config to createAuthServer.
 */
import { defaultsOf, libuvPoolSize, readSettings } from '@heroes/platform/settings';
import { SETTINGS } from './settings.ts';

/** Rules that are not settings. */
export const FIXED = Object.freeze({
  /**
   * Lifetime of an ID token (code flow with scope `openid`, and its
   * refreshes). Unit: seconds. Default 1 h. Not configurable: nothing here
   * keeps an ID token once the client has read it.
   */
  idTokenTtl: 3_600,

  /**
   * How many successful client-secret verifications are remembered, and for
   * how long (milliseconds).
   */
  secretCacheMax: 10_000,
  secretCacheTtlMs: 10 * 60_000,
});

/** The computed default, as the table computes it from the other defaults (an empty environment). */
const { publicBaseUrl } = readSettings(SETTINGS, {}).values;

export const DEFAULTS = Object.freeze({
  ...defaultsOf(SETTINGS),
  publicBaseUrl,
  passwordHashConcurrency: libuvPoolSize(),
  ...FIXED,
});
