/**
 * Before any route: a query of more than `max` parameters → 400 `too many query parameters`. Koa's querystring
 * keeps only the first 1,000 pairs and other parsers keep all, so a route could otherwise act on another request
 * than the one sent. Counted in one pass; empty parts are not parameters.
 */
import { BadRequestError } from '../errors/client-errors.ts';

const TOO_MANY_QUERY_PARAMETERS = 'too many query parameters';

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
