import test from 'ava';
import { readSettings, TRACING_SETTINGS, tracingAsked } from '../../src/settings/index.ts';

const read = (env: Record<string, string>) => readSettings(TRACING_SETTINGS, env);

test('tracing is asked for by an OTLP endpoint, unless OTEL_SDK_DISABLED is true', (t) => {
  t.false(tracingAsked(read({}).values));
  t.false(tracingAsked(read({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' }).values));
  t.true(tracingAsked(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }).values));
  t.true(tracingAsked(read({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }).values));
  t.false(tracingAsked(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }).values));
});

test('defaults follow the OpenTelemetry conventions', (t) => {
  const { values, problems } = read({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
  t.deepEqual(problems, []);
  t.is(values.otlpProtocol, 'http/json');
  t.is(values.otlpTracesProtocol, 'http/json', 'the traces protocol defaults to the general one');
  t.is(values.sampler, 'parentbased_always_on');
  t.is(values.samplerArg, 1);
  t.is(values.bspScheduleDelayMs, 5000);
});

test('a value the SDK would silently replace is one problem line instead', (t) => {
  const { problems } = read({
    OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
    OTEL_TRACES_SAMPLER: 'sometimes',
    OTEL_TRACES_SAMPLER_ARG: '1.5',
    OTEL_BSP_MAX_QUEUE_SIZE: '0',
    OTEL_RESOURCE_ATTRIBUTES: 'no-equals-sign',
    OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
  });
  t.is(problems.length, 6, problems.join('\n'));
  t.true(problems.some((line) => line.startsWith('OTEL_EXPORTER_OTLP_PROTOCOL must be one of http/protobuf, http/json')));
  t.true(problems.some((line) => line.startsWith('OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1')));
  t.deepEqual(read({ OTEL_TRACES_SAMPLER_ARG: '0.25', OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod, service.namespace=heroes' }).problems, []);
  t.is(read({ OTEL_TRACES_SAMPLER_ARG: '.5' }).values.samplerArg, 0.5);
});
