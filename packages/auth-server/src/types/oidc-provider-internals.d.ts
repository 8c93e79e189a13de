// The provider's per-instance private state reader (lib/helpers/weak_cache.js).
// Not part of the public API; used only by scopes/declare-scopes.ts, whose
// test fails loudly if a library update moves it.
declare module 'oidc-provider/lib/helpers/weak_cache.js' {
  const instance: (provider: object) => { configuration?: { scopes?: unknown } } | undefined;
  export default instance;
}

// The library's form body reader (lib/shared/selective_body.js), called once
// by provider/hand-form-to-provider.ts to spend its one-time warning.
declare module 'oidc-provider/lib/shared/selective_body.js' {
  export function urlencoded(ctx: object, next: () => Promise<void>): Promise<void>;
}
