/**
 * The shared test kit (@heroes/test-kit): generic helpers every package's tests, the bench and the
 * whole-stack tests use, kept here once so that no package copies them. No runtime package imports it.
 */
export { exchange, jsonBody, type RawExchange } from './raw-exchange.ts';
export { uploadFromAnotherProcess, type UploadOptions, type UploadOutcome } from './upload-from-another-process.ts';
export { freePort } from './free-port.ts';
export { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';
export { spawnProcess, type SpawnedProcess, type SpawnOptions } from './spawn-process.ts';
export { fetchJson, type JsonRequest, type JsonResponse } from './fetch-json.ts';
export { launchBrowser, servePage, type PageServer } from './browser.ts';
export { waitFor, type WaitForOptions } from './wait-for.ts';
export { basic } from './basic-auth.ts';
export { probeLatencyWhile, type ProbedWork } from './probe-latency.ts';
export { rawRequest, type RawRequest, type RawResponse } from './raw-request.ts';
export { postFormBody, type FormBodyOptions } from './post-form-body.ts';
export { captureJsonLines, type CapturedLines } from './log-lines.ts';
export { listenLocally, type Listening } from './listen-locally.ts';
export { acceptedConnections, holdsLocalPort } from './accepted-connections.ts';
export { addClient, addUser, type ClientInput, type OAuthRows } from './oauth-rows.ts';
export { passwordToken, type TokenOptions, type TokenResponse } from './password-token.ts';
export { accessTokenHash, createDpopKey, dpopProof, type DpopKey, type ProofClaims } from './dpop.ts';
export { startPgBouncer, DEFAULT_IGNORED_STARTUP_PARAMETERS, type PgBouncer, type PgBouncerOptions } from './pgbouncer.ts';
export { OpenApiContract, type OpenApiDocument } from './openapi-contract.ts';
export { checkAnswersOf, type CheckAnswersOptions } from './check-answers.ts';
export { startSocketHolder, type HolderStatus, type SocketHolder } from './socket-holder.ts';
export { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan, type SpanAttributes } from './otlp-receiver.ts';
export { repoRoot } from './repo-root.ts';
export { adminUrl, createEmptyDatabase, createTestDatabase, createTestPool, dropDatabase, migrationSql, withDatabase, type TestDatabase, type TestPool } from './test-database.ts';
