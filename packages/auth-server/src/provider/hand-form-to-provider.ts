/**
 * Gives oidc-provider a form body we have already read and decoded, so the
 * token, revocation and introspection endpoints follow http-kit's body
 * rules (MAX_BODY_BYTES and 413, charset and 415, see body/read-form.ts)
 * instead of the library's own reader (lib/shared/selective_body.js: a hard
 * 56 KiB cap answered with 400, and no charset check).
 *
 * How the library takes it (selective_body.js): when `ctx.req.readable` is
 * false (we consumed the stream), it reads `ctx.req.body` and, for forms,
 * uses `querystring.parse(querystring.stringify(body))`: an object of
 * strings (arrays for repeated keys, which the library then refuses as
 * duplicates, as before).
 *
 * That branch prints a one-time console warning ("already parsed request
 * body detected ...") meant for apps that parse bodies by accident; here
 * it is deliberate, so silenceParsedBodyWarning() uses the warning up once,
 * silently, when the server is built. test/body/provider-body.test.ts
 * checks that no warning is printed and that the branch is taken.
 */
import type { IncomingMessage } from 'node:http';
import type { FormValue } from '@heroes/http-kit';
import { urlencoded } from 'oidc-provider/lib/shared/selective_body.js';

type WithBody = IncomingMessage & { body?: Record<string, FormValue> };

/** Hands `form` to the library for this request. */
export function handFormToProvider(req: IncomingMessage, form: Record<string, FormValue>): void {
  (req as WithBody).body = form;
  // Already false once the stream was read to its end; an empty body may never have been read.
  if (req.readable) Object.defineProperty(req, 'readable', { value: false, configurable: true });
}

/** The form handed to the library for this request, if any. */
export function providerForm(req: IncomingMessage): Record<string, FormValue> | undefined {
  return (req as WithBody).body;
}

let silenced = false;

/**
 * Spends the library's one-time "already parsed request body" warning
 * without printing it. The warning is issued synchronously when the
 * branch is first taken, so console.warn is replaced only for that call.
 */
export async function silenceParsedBodyWarning(): Promise<void> {
  if (silenced) return;
  silenced = true;
  const fake = {
    method: 'POST',
    is: (type: string) => type,
    get: () => '',
    req: { readable: false, body: {} },
    request: {},
    oidc: {},
  };
  const warn = console.warn;
  console.warn = () => {};
  let pending: Promise<void>;
  try {
    pending = urlencoded(fake, async () => {});
  } finally {
    console.warn = warn;
  }
  await pending;
}
