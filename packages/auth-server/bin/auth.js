#!/usr/bin/env node
// `npx auth <command>`: the OAuth 2.0 client registry CLI (src/cli/main.ts).
// In the production image (NODE_ENV=production) it runs the compiled
// dist/cli/main.js; everywhere else the TypeScript sources through tsx, so
// they need no build step.
if (process.env.NODE_ENV === 'production') {
  await import('../dist/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
