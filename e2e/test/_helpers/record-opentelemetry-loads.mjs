// Loaded into every process of a test (NODE_OPTIONS=--import=<this file>): appends
// `<pid> <url>` to $RECORD_LOADS_FILE for each OpenTelemetry SDK or module-hook
// file the process resolves, so a test can tell whether tracing code was loaded.
import fs from 'node:fs';
import { registerHooks } from 'node:module';

const file = process.env.RECORD_LOADS_FILE;
if (file) {
  registerHooks({
    resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      if (/\/node_modules\/(?:@opentelemetry\/(?!api\/)|import-in-the-middle\/)/.test(resolved.url)) fs.appendFileSync(file, `${process.pid} ${resolved.url}\n`);
      return resolved;
    },
  });
}
