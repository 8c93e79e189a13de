/**
 * The kit: one middleware to `app.use()` first (after @heroes/platform's request log), outermost first: nosniff,
 * error mapping of compression's own failures, gzip, error mapping to `{"error": ...}`, a declared Content-Length
 * over `maxBodyBytes` → 413 before any route (and a query over `maxQueryParameters` → 400), response encoding.
 * It links the request to the registry and body limit for readBody().
 */
import type { Middleware } from 'koa';
import type { CodecRegistry } from './codecs/codec-registry.ts';
import { assertDeclaredLength } from './body/read-bytes.ts';
import { createCompression } from './compression/compress.ts';
import { createErrorHandler } from './errors/handle-errors.ts';
import { resolveOptions, type HttpKitOptions, type ResolvedHttpKitOptions } from './options.ts';
import { assertQuerySize } from './query/assert-query-size.ts';
import { attachSettings } from './request-settings.ts';
import { NO_SNIFF } from './response/no-sniff.ts';
import { createResponseEncoder } from './response/encode-response.ts';

export interface HttpKit {
  middleware: Middleware;
  registry: CodecRegistry;
  options: ResolvedHttpKitOptions;
}

export function createHttpKit(options: HttpKitOptions = {}): HttpKit {
  const resolved = resolveOptions(options);
  const { registry, logger, compressThreshold } = resolved;
  const compress = options.skip?.compression ? passThrough : createCompression(registry, compressThreshold);
  const handleErrors = createErrorHandler(logger, options.translateError);
  const encodeResponse = createResponseEncoder(registry);
  const middleware: Middleware = function httpKit(ctx, next) {
    attachSettings(ctx, resolved);
    ctx.set(NO_SNIFF);
    return handleErrors(ctx, () => compress(ctx, () =>
      handleErrors(ctx, () => {
        assertDeclaredLength(ctx.req, resolved.maxBodyBytes);
        assertQuerySize(ctx.querystring, resolved.maxQueryParameters);
        return encodeResponse(ctx, next);
      })));
  };
  return { middleware, registry, options: resolved };
}

const passThrough: Middleware = (_ctx, next) => next();
