/**
 * What each server loads first (`node --import <server>/register-tracing`), before its modules, so the hooks see pg,
 * pino and node:http: tracing starts only when an OTLP endpoint is set and OTEL_SDK_DISABLED is not true, else nothing
 * more is imported (no SDK, no hook, no connection). A bad OTEL_* value starts nothing here; the server's settings
 * check reports it and exits 1.
 */
import { readSettings } from '../settings/define-settings.ts';
import { TRACING_SETTINGS, tracingAsked } from '../settings/tracing-settings.ts';

export async function registerTracing(defaultServiceName: string): Promise<void> {
  const { values, problems } = readSettings(TRACING_SETTINGS, process.env);
  if (problems.length > 0 || !tracingAsked(values)) return;
  const { startTracing } = await import('./start-tracing.ts');
  await startTracing(values, defaultServiceName);
}
