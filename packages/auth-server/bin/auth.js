#!/usr/bin/env node
// `npx auth <command>`: the OAuth 2.0 client registry CLI (src/cli/main.ts),
// run through tsx so the TypeScript sources need no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
