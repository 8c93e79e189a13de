/**
 * Step of the kit's middleware, before any route: a query string of more
 * than `max` parameters → 400 `too many query parameters`.
 *
 * Node's querystring (Koa's `ctx.query`) silently keeps only the first
 * 1,000 pairs, and other parsers (URLSearchParams, oidc-provider's) keep all
 * of them, so without this a route could act on another request than the one
 * sent, or fan a huge query out. Counted in one pass without building the
 * list; empty parts (`a&&b`) are not parameters.
 */
import { BadRequestError } from '../errors/client-errors.ts';

export const TOO_MANY_QUERY_PARAMETERS = 'too many query parameters';

export function assertQuerySize(querystring: string, max: number): void {
  let count = 0;
  let start = 0;
  while (start <= querystring.length) {
    let end = querystring.indexOf('&', start);
    if (end === -1) end = querystring.length;
    if (end > start && ++count > max) {
      throw new BadRequestError(TOO_MANY_QUERY_PARAMETERS, { code: 'too_many_parameters' });
    }
    start = end + 1;
  }
}
