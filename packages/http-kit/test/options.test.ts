import test from 'ava';
import { CodecRegistry, createDefaultRegistry, createHttpKit, DEFAULTS } from '../src/index.ts';

test('resolved options carry the documented defaults', (t) => {
  const kit = createHttpKit();
  t.is(kit.options.maxBodyBytes, 10 * 1024 * 1024);
  t.is(kit.options.compressThreshold, 0);
  t.true(kit.options.registry instanceof CodecRegistry);
  t.is(kit.registry, kit.options.registry);
  t.is(typeof kit.options.logger.info, 'function');
  t.is(DEFAULTS.maxBodyBytes, kit.options.maxBodyBytes);
  t.true(Object.isFrozen(kit.options));
  t.is(kit.middleware.name, 'httpKit');
});

test('given options are kept', (t) => {
  const registry = createDefaultRegistry();
  const kit = createHttpKit({ registry, maxBodyBytes: 5, compressThreshold: 0 });
  t.is(kit.registry, registry);
  t.is(kit.options.maxBodyBytes, 5);
  t.is(kit.options.compressThreshold, 0);
});

test('invalid sizes are refused at creation', (t) => {
  t.throws(() => createHttpKit({ maxBodyBytes: -1 }), { instanceOf: TypeError });
  t.throws(() => createHttpKit({ compressThreshold: 1.5 }), { instanceOf: TypeError });
});
