/**
 * The production image's runtime environment (Dockerfile, ENV), in one place
 * for the scripts that run the servers as the image does: `npm start` takes
 * the malloc settings, `npm run bench` all of it for the compiled servers.
 * e2e/test/deploy/production-image.test.ts keeps it equal to the Dockerfile.
 */

/** The image's NODE_OPTIONS. */
export const PRODUCTION_NODE_OPTIONS = '--conditions=production --max-semi-space-size=8 --experimental-async-context-frame';

/** The image's glibc malloc settings (docs/performance.md, Memory). */
export const PRODUCTION_RUNTIME_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '32768' } as const;
