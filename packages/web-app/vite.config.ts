/**
 * Vite's build of the web app. The edge serves the build at /app/ (packages/resource-server/src/routes/app/
 * app-route.ts), so every asset URL is under that base.
 */
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/app/',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
});
