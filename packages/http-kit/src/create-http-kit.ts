/**
 * The kit: one middleware to `app.use()` first, plus the resolved options.
 *
 * The middleware runs, outermost first (the request log line is the
 * platform's: @heroes/platform's createRequestLogger, used before the kit):
 * 1. `X-Content-Type-Options: nosniff` is set on every answer (no-sniff.ts);
 * 2. error mapping of what compression itself throws (a JSON 500, never
 *    Koa's text body);
 * 3. gzip — koa-compress, so compression is the last step of the response;
 * 4. error mapping — anything thrown below becomes `{"error": ...}` (toProblem);
 * 5. declared length — a Content-Length over `maxBodyBytes` → 413 with
 *    `Connection: close` before any route runs and without reading the body;
 *    a query of more than `maxQueryParameters` parameters → 400;
 * 6. response encoding — the codec registry turns `ctx.body` into bytes.
 * It also links the request to the registry and body limit, for readBody().
 * For `Expect: 100-continue` requests, configureServer() answers the same 413
 * instead of `100 Continue`.
 *
 * Usage:
 * ```ts
 * const kit = createHttpKit({ logger, maxBodyBytes: 1024 * 1024 });
 * app.use(kit.middleware);
 * ```
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
    attachSettings(ctx.req, resolved);
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
