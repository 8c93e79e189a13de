/**
 * Entry point of the authorization server process: caps V8's heap growth before
 * the server's modules load (a full collection runs while they do; the
 * platform's server/limit-heap-growth.ts), then loads server-process.ts.
 */
import { limitHeapGrowth } from '@heroes/platform/limit-heap-growth';

limitHeapGrowth();
await import('./server-process.ts');
