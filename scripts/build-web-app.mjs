// Part of `npm install` (postinstall): builds the Tour of Heroes web app
// (packages/web-app, served at /app) so that `npm start` serves it. Plain
// JavaScript because it runs before anything else is set up. Skipped when
// the app's sources are not there yet (the Dockerfile installs before it
// copies the sources, then runs `npm run build`, which builds it too).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

if (!fs.existsSync(new URL('../packages/web-app/index.html', import.meta.url))) process.exit(0);
const result = spawnSync('npm', ['run', 'build', '--workspace=@heroes/web-app', '--silent'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
