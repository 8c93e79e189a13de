/**
 * The one wrapper around the adapter oidc-provider stores its models through (its documented `adapter` option): per
 * model, steps that adjust a payload before it is stored (with the request's `Provider.ctx`, if any) or after it is
 * read. library/create-provider.ts lists them: an access token's scope and audience, a refresh token's DPoP key.
 */
import Provider, { type Adapter, type AdapterPayload, type KoaContextWithOIDC } from 'oidc-provider';

/** The adapter factory oidc-provider takes (`adapter` of its Configuration): one adapter per model. */
export type AdapterFactory = (model: string) => Adapter;

export interface StoreHook {
  /** Adjusts `payload` before it is stored; may throw an OAuth error to refuse the token. */
  beforeStore?(payload: AdapterPayload, ctx: KoaContextWithOIDC | undefined): void | Promise<void>;
  /** Adjusts a stored payload as it is read back. */
  afterFind?(payload: AdapterPayload): void;
}

/** `adapters`, with each model's hooks run in the order listed. */
export function withStoreHooks(adapters: AdapterFactory, hooks: Readonly<Partial<Record<string, readonly StoreHook[]>>>): AdapterFactory {
  // A plain function: the library calls a factory with or without `new`.
  return function createHookedAdapter(model: string): Adapter {
    const adapter = adapters(model);
    const listed = hooks[model];
    return listed?.length ? new HookedAdapter(adapter, listed) : adapter;
  };
}

class HookedAdapter implements Adapter {
  constructor(private readonly stored: Adapter, private readonly hooks: readonly StoreHook[]) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<undefined | void> {
    const ctx = Provider.ctx;
    for (const hook of this.hooks) await hook.beforeStore?.(payload, ctx);
    return this.stored.upsert(id, payload, expiresIn);
  }

  async find(id: string) {
    const payload = await this.stored.find(id);
    if (payload) for (const hook of this.hooks) hook.afterFind?.(payload);
    return payload;
  }

  findByUserCode(userCode: string) { return this.stored.findByUserCode(userCode); }
  findByUid(uid: string) { return this.stored.findByUid(uid); }
  consume(id: string) { return this.stored.consume(id); }
  destroy(id: string) { return this.stored.destroy(id); }
  revokeByGrantId(grantId: string) { return this.stored.revokeByGrantId(grantId); }
}
