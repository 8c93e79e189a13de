/**
 * The adapter factory handed to oidc-provider: one adapter per model name.
 *
 * Usage:
 *   new Provider(issuer, { adapter: createAdapterFactory({ db, notify, introspectionOnlyClientId }) });
 */
import type { PrismaClient } from '@heroes/db';
import type { Adapter } from 'oidc-provider';
import type { AuditTrail } from '../audit/audit-trail.ts';
import type { RevocationNotifier } from '../notify/revocation-notifier.ts';
import { ClientAdapter } from './client-adapter.ts';
import { RecordAdapter } from './record-adapter.ts';
import { TokenAdapter, type TokenModel } from './token-adapter.ts';

const TOKEN_MODELS = new Set<string>(['AccessToken', 'RefreshToken', 'AuthorizationCode']);

export interface AdapterDeps {
  db: PrismaClient;
  notify: RevocationNotifier;
  /** The resource server's client: it may introspect, never obtain a token. */
  introspectionOnlyClientId?: string;
  /** Where token events are recorded (audit/token-audit.ts). */
  trail?: AuditTrail;
}

export function createAdapterFactory({ db, notify, introspectionOnlyClientId, trail }: AdapterDeps): (model: string) => Adapter {
  return function createAdapter(model) {
    if (model === 'Client') return new ClientAdapter(db, introspectionOnlyClientId);
    if (TOKEN_MODELS.has(model)) return new TokenAdapter(db, model as TokenModel, notify, trail);
    return new RecordAdapter(db, model);
  };
}
