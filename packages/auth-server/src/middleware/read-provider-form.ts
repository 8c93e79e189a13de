/**
 * Form bodies of the token, revocation and introspection endpoints are
 * read by us, before oidc-provider sees the request (see
 * read-form.ts for the rules, provider/library-seams.ts for
 * the hand-over).
 *
 * Rules enforced here:
 * - POST with a form body on those paths: read and decoded through
 *   http-kit (MAX_BODY_BYTES → 413, unknown charset → 415, malformed →
 *   400), then handed to the library;
 * - any other request (a JSON body, no body) goes to the library as it
 *   came, which keeps its own answers (400 "only
 *   application/x-www-form-urlencoded content-type bodies are supported").
 */
import type { Middleware } from 'koa';
import { FORM, readForm } from './read-form.ts';
import { handFormToProvider } from '../provider/library-seams.ts';

export const readProviderForm: Middleware = async function readProviderForm(ctx, next) {
  if (ctx.is(FORM)) handFormToProvider(ctx.req, (await readForm(ctx, { required: false })) ?? {});
  return next();
};
