/**
 * What each server loads first (`node --import <server>/register-tracing`):
 * tracing starts only when OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set (and OTEL_SDK_DISABLED is not
 * true). Otherwise nothing more is imported: no SDK, no loader hook, no
 * connection. It must run before the server's modules load, so that the
 * module hooks see `pg`, `pino` and `node:http` (docs/operations.md,
 * "Tracing"). A bad OTEL_* value starts no tracing here; the server's own
 * settings check then reports it and exits 1.
 *
 * Usage (the server's register-tracing.ts):
 *   await registerTracing('heroes-resource-server');
 */
import { readSettings } from '../settings/define-settings.ts';
import { TRACING_SETTINGS, tracingAsked } from '../settings/tracing-settings.ts';

export async function registerTracing(defaultServiceName: string): Promise<void> {
  const { values, problems } = readSettings(TRACING_SETTINGS, process.env);
  if (problems.length > 0 || !tracingAsked(values)) return;
  const { startTracing } = await import('./start-tracing.ts');
  await startTracing(values, defaultServiceName);
}
