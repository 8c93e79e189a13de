import { defineConfig } from 'vite';

// The edge serves the build at /app/ (packages/resource-server/src/routes/app/app-route.ts).
export default defineConfig({
  base: '/app/',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
});
