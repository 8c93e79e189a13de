/**
 * CORS headers on the error answers our own layers give at token, revoke and introspect before oidc-provider runs
 * (which sets CORS on its own answers), else the page sees "Failed to fetch" (docs/oauth.md, "Browser origins"). Only
 * cross-origin non-preflight requests, for an origin the named client (Basic or client_id) allows; a failed client
 * lookup adds nothing and never replaces the error.
 */
import type { Middleware } from 'koa';
import { findClientRow, type PrismaClient } from '@heroes/db';
import { effectiveOrigins } from '../clients/allowed-origins.ts';
import { requestState, type RequestState } from '../request-state.ts';
import { parseBasic } from './parse-basic.ts';

export function createCorsOnErrors(db: PrismaClient): Middleware {
  return async function corsOnErrors(ctx, next) {
    const origin = ctx.get('Origin');
    if (!origin || ctx.method === 'OPTIONS') return next();
    try {
      await next();
    } catch (err) {
      if (!ctx.response.get('Access-Control-Allow-Origin') && (await clientAllows(db, clientIdOf(ctx.get('Authorization'), requestState(ctx).form), origin))) {
        ctx.set('Access-Control-Allow-Origin', origin);
        ctx.vary('Origin');
      }
      throw err;
    }
  };
}

function clientIdOf(authorization: string, form: RequestState['form']): string | undefined {
  const fromBasic = authorization ? parseBasic(authorization)?.id : undefined;
  if (fromBasic) return fromBasic;
  const fromForm = form?.['client_id'];
  return typeof fromForm === 'string' && fromForm !== '' ? fromForm : undefined;
}

async function clientAllows(db: PrismaClient, clientId: string | undefined, origin: string): Promise<boolean> {
  if (!clientId || clientId.length > 255) return false;
  try {
    const row = await findClientRow(db, clientId);
    return row !== undefined && effectiveOrigins(row.allowedOrigins, row.redirectUris).includes(origin);
  } catch {
    return false;
  }
}
