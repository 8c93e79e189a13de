// The provider's per-instance private state reader (lib/helpers/weak_cache.js).
// Not part of the public API; used only by scopes/declare-scopes.ts, whose
// test fails loudly if a library update moves it.
declare module 'oidc-provider/lib/helpers/weak_cache.js' {
  const instance: (provider: object) => { configuration?: { scopes?: unknown } } | undefined;
  export default instance;
}
