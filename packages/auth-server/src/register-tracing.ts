/**
 * Loaded before the server's modules (`node --import` this file; npm start,
 * the image and deploy/kubernetes all do): OpenTelemetry tracing when an
 * OTLP endpoint is set, nothing otherwise (docs/operations.md, "Tracing").
 * The spans' service.name is `heroes-auth-server` unless OTEL_SERVICE_NAME says otherwise.
 */
import { registerTracing } from '@heroes/platform/tracing';

await registerTracing('heroes-auth-server');
