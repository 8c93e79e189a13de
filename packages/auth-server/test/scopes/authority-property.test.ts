/**
 * Property (docs/oauth.md, "Scopes"): for random clients, grants and requested scopes, an issued token's authority
 * (its introspected scope under the one scope rule) is never more than the client is allowed and asked for, across
 * the password grant, the code flow, refreshes and refreshes after narrowing. Bounded by NUM_RUNS or TIME_LIMIT_MS;
 * a failure prints fast-check's seed and shrunk case.
 */
import test from 'ava';
import bcrypt from 'bcrypt';
import fc from 'fast-check';
import { HERO_SCOPES, isGranted, OPENID } from '@heroes/oauth-scopes';
import { addUser, startTestServer, type TestServer } from '../_helpers/fixtures.ts';
import { basic, passwordGrant, postForm } from '../_helpers/http.ts';
import { allowedScopes } from '../../src/scopes/allowed-scopes.ts';

const NUM_RUNS = 40;
const TIME_LIMIT_MS = 60_000;
const redirectUri = 'http://127.0.0.1:9/cb';
const SECRET = 'prop-secret';

/** Registered and requested values: parents, sub-scopes, modifiers, openid, unrelated ones. */
const UNIVERSE = ['heroes', 'heroes:read', 'heroes:write', 'heroes:read:x', 'user', 'user.readonly', 'user:foo', 'reports', OPENID];
/** Values only ever requested (never registered). */
const REQUEST_ONLY = ['heroes:write:y', 'user:foo.readonly', 'admin'];
/** What authority is probed with. */
const PROBES = [...new Set([...UNIVERSE, ...REQUEST_ONLY, ...HERO_SCOPES, 'heroes:read:x:z', 'user:bar'])].filter((probe) => probe !== OPENID);

let s: TestServer;
let clients = 0;
let hashedSecret = '';

test.before(async () => {
  s = await startTestServer();
  hashedSecret = await bcrypt.hash(SECRET, 4);
  await addUser(s.db, 'bob', 'hero-password-1');
});
test.after.always(() => s?.close());

const scopeSet = (values: readonly string[]) => fc.subarray([...values], { minLength: 0 });
const requestedScope = fc.option(fc.subarray([...UNIVERSE, ...REQUEST_ONLY], { minLength: 1 }), { nil: undefined });

/** Authority of `scopes`: the probes they grant. */
function authority(scopes: readonly string[]): Set<string> {
  return new Set(PROBES.filter((probe) => isGranted(scopes, probe)));
}

/** Every probe granted by `token` is granted by each of `bounds`. */
function within(token: readonly string[], ...bounds: (readonly string[])[]): boolean {
  return [...authority(token)].every((probe) => bounds.every((bound) => isGranted(bound, probe)));
}

/** The token's scope as introspected (a confidential client may introspect its own tokens). */
async function introspectedScope(token: unknown, clientAuth: string): Promise<string[]> {
  const res = await postForm(`${s.url}/auth/introspect`, { token: String(token) }, { authorization: clientAuth });
  if (res.body['active'] !== true) throw new Error(`token inactive: ${res.text}`);
  return String(res.body['scope'] ?? '').split(' ').filter(Boolean);
}

async function issue(grant: 'password' | 'code', clientId: string, scope: string | undefined): Promise<{ status: number; body: Record<string, unknown>; text: string }> {
  const auth = basic(clientId, SECRET);
  if (grant === 'password') return passwordGrant(s.url, auth, { username: 'bob', password: 'hero-password-1', ...(scope ? { scope } : {}) });
  const res = await postForm(`${s.url}/auth/code`, { client_id: clientId, response_type: 'code', state: 's', username: 'bob', password: 'hero-password-1', ...(scope ? { scope } : {}) });
  const location = new URL(res.headers.get('location') ?? 'about:blank');
  const code = location.searchParams.get('code');
  if (!code) return { status: 400, body: { error: location.searchParams.get('error') }, text: location.href };
  return postForm(`${s.url}/auth/token`, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, { authorization: auth });
}

test('issued authority ⊆ allowed ∩ requested: password, code, refresh, refresh after narrowing', async (t) => {
  await fc.assert(
    fc.asyncProperty(
      scopeSet(UNIVERSE.filter((value) => value !== OPENID)),
      fc.constantFrom('password' as const, 'code' as const),
      requestedScope,
      requestedScope,
      fc.option(scopeSet(UNIVERSE.filter((value) => value !== OPENID)), { nil: undefined }),
      async (registered, grant, requested, refreshRequested, narrowedTo) => {
        const clientId = `prop-${++clients}`;
        await s.db.oAuthClient.create({ data: { id: clientId, hashedSecret, redirectUris: [redirectUri], allowedScopes: registered } });
        const clientAuth = basic(clientId, SECRET);
        const allowed = allowedScopes(registered);

        const issued = await issue(grant, clientId, requested?.join(' '));
        if (issued.status !== 200) {
          // Refused only because something requested is not allowed.
          t.is(issued.body['error'], 'invalid_scope', issued.text);
          t.true((requested ?? []).some((value) => value !== OPENID && !isGranted(allowed, value)), `refused although allowed: ${issued.text}`);
          return true;
        }
        const scope = await introspectedScope(issued.body['access_token'], clientAuth);
        t.deepEqual(String(issued.body['scope']).split(' '), scope, 'the answer names what the token records');
        if (!within(scope, allowed, requested ?? allowed)) return false;

        if (narrowedTo) await s.db.oAuthClient.update({ where: { id: clientId }, data: { allowedScopes: narrowedTo } });
        const nowAllowed = narrowedTo ? allowedScopes(narrowedTo) : allowed;
        const refreshed = await postForm(
          `${s.url}/auth/token`,
          { grant_type: 'refresh_token', refresh_token: String(issued.body['refresh_token']), ...(refreshRequested ? { scope: refreshRequested.join(' ') } : {}) },
          { authorization: clientAuth },
        );
        if (refreshed.status !== 200) {
          t.is(refreshed.body['error'], 'invalid_scope', refreshed.text);
          return true;
        }
        const refreshedScope = await introspectedScope(refreshed.body['access_token'], clientAuth);
        return within(refreshedScope, scope, nowAllowed, refreshRequested ?? scope);
      },
    ),
    { numRuns: NUM_RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
  );
  t.pass();
});
