/**
 * The token, revocation and introspection endpoints' form bodies are read by us (read-form.ts's rules) before
 * oidc-provider sees them, then handed to it (library/library-seams.ts); any other request goes to the library as it
 * came, which keeps its own answers.
 */
import type { Middleware } from 'koa';
import { FORM, readForm } from '../common/read-form.ts';
import { handFormToProvider } from './library-seams.ts';
import { requestState } from '../request-state.ts';

export const readProviderForm: Middleware = async function readProviderForm(ctx, next) {
  if (!ctx.is(FORM)) return next();
  const form = (await readForm(ctx, { required: false })) ?? {};
  requestState(ctx).form = form;
  handFormToProvider(ctx, form);
  return next();
};
