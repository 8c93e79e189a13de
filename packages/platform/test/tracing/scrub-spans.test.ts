import test from 'ava';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { redactQuery, scrubAttributes, ScrubSpans, withoutLiterals } from '../../src/tracing/scrub-spans.ts';

test('every query value is redacted, keys kept', (t) => {
  t.is(redactQuery('client_id=app&state=s3cr3t&code_challenge=abc&flag'), 'client_id=REDACTED&state=REDACTED&code_challenge=REDACTED&flag');
});

test('URLs keep their path, lose their query values', (t) => {
  const scrubbed = scrubAttributes({
    'url.full': 'http://127.0.0.1:8889/auth/code?code=xyz&state=1#frag',
    'http.target': '/auth/code?code=xyz',
    'url.query': 'code=xyz',
    'url.path': '/auth/code',
  });
  t.deepEqual(scrubbed, {
    'url.full': 'http://127.0.0.1:8889/auth/code?code=REDACTED&state=REDACTED',
    'http.target': '/auth/code?code=REDACTED',
    'url.query': 'code=REDACTED',
    'url.path': '/auth/code',
  });
});

test('SQL text loses its quoted literals, keeps its $n parameters', (t) => {
  t.is(withoutLiterals("SELECT id FROM heroes WHERE lower(name) LIKE '%' || lower($3) || '%' AND note = E'it''s' AND id > $1"),
    'SELECT id FROM heroes WHERE lower(name) LIKE ? || lower($3) || ? AND note = ? AND id > $1');
  t.deepEqual(scrubAttributes({ 'db.query.text': "SET x = 'secret'", 'db.system.name': 'postgresql' }), { 'db.query.text': 'SET x = ?', 'db.system.name': 'postgresql' });
});

test('captured credential headers are dropped, other attributes pass as they are', (t) => {
  t.deepEqual(scrubAttributes({
    'http.request.header.authorization': ['Bearer abc'],
    'http.request.header.cookie': ['sid=1'],
    'http.response.header.set-cookie': ['sid=1'],
    'http.request.header.dpop': ['eyJ'],
    'http.request.header.accept': ['application/json'],
    'http.response.status_code': 200,
  }), { 'http.request.header.accept': ['application/json'], 'http.response.status_code': 200 });
});

test('ScrubSpans, first of the provider\'s processors, scrubs every span before an exporter sees it; a clean span stays as it is', async (t) => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new ScrubSpans(), new SimpleSpanProcessor({ exporter })] });
  const tracer = provider.getTracer('test');
  const span = tracer.startSpan('GET', { attributes: { 'url.full': 'http://127.0.0.1:1/auth/code?code=xyz', 'http.request.header.cookie': ['sid=1'] } });
  span.setAttribute('db.query.text', "SELECT 'secret'");
  span.addEvent('step', { 'url.query': 'token=abc' });
  span.end();
  const clean = { 'url.path': '/heroes', 'http.response.status_code': 200 };
  tracer.startSpan('GET /heroes', { attributes: clean }).end();
  await provider.forceFlush();
  const [scrubbed, untouched] = exporter.getFinishedSpans();
  t.deepEqual(scrubbed!.attributes, { 'url.full': 'http://127.0.0.1:1/auth/code?code=REDACTED', 'db.query.text': 'SELECT ?' });
  t.deepEqual(scrubbed!.events[0]!.attributes, { 'url.query': 'token=REDACTED' });
  t.deepEqual(untouched!.attributes, clean);
  await provider.shutdown();
});
