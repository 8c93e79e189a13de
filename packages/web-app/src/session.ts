/**
 * The signed-in session: the access token, kept in sessionStorage (this
 * tab only, gone when it closes). A public client gets no refresh token,
 * so an expired token means signing in again. A DPoP token (the app's,
 * see dpop.ts) is useless without the key pair kept in IndexedDB.
 */
const KEY = 'heroes.session';

export interface Session {
  accessToken: string;
  /** `DPoP` (bound to the app's key) or `bearer`. */
  tokenType: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

export function loadSession(): Session | undefined {
  const raw = sessionStorage.getItem(KEY);
  if (!raw) return undefined;
  try {
    const session = JSON.parse(raw) as Session;
    return typeof session.accessToken === 'string' ? { ...session, tokenType: session.tokenType ?? 'bearer' } : undefined;
  } catch {
    return undefined;
  }
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
}

export function clearSession(): void {
  sessionStorage.removeItem(KEY);
}
