for (const m of ['@heroes/db', '@heroes/http-kit', 'oidc-provider', 'koa', '@heroes/auth-server', '@heroes/resource-server']) {
  const t = performance.now(); await import(m); console.log(m, (performance.now() - t).toFixed(0));
}
