/**
 * The shared test kit (import from '@heroes/http-kit/testing'): generic helpers every package's tests use,
 * kept here once so that no package copies them.
 */
export { exchange, jsonBody, type RawExchange } from './raw-exchange.ts';
export { uploadFromAnotherProcess, type UploadOptions, type UploadOutcome } from './upload-from-another-process.ts';
export { freePort } from '../../../service-platform/src/server/free-port.ts'; // until the test kit has its own package
export { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';
export { spawnProcess, type SpawnedProcess, type SpawnOptions } from './spawn-process.ts';
export { fetchJson, type JsonRequest, type JsonResponse } from './fetch-json.ts';
export { launchBrowser, servePage, type PageServer } from './browser.ts';
export { waitFor, type WaitForOptions } from './wait-for.ts';
export { basic } from './basic-auth.ts';
export { probeLatencyWhile, type ProbedWork } from './probe-latency.ts';
