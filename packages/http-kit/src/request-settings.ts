/**
 * Per-request link from the kit middleware to readBody(): the registry and body limit in force, plus the raw body
 * read once. Kept on `ctx.state` (the same object through koa-mount and routers), freed with the request.
 */
import type { ResolvedHttpKitOptions } from './options.ts';

export interface RequestSettings {
  options: ResolvedHttpKitOptions;
  /** Raw body bytes once read (a request stream can be read only once). */
  body?: Promise<Buffer>;
}

interface KitState {
  httpKit?: RequestSettings;
}

export function attachSettings(ctx: { state: unknown }, options: ResolvedHttpKitOptions): void {
  (ctx.state as KitState).httpKit = { options };
}

export function getSettings(ctx: { state: unknown }): RequestSettings | undefined {
  return (ctx.state as KitState).httpKit;
}

export function setSettings(ctx: { state: unknown }, value: RequestSettings): void {
  (ctx.state as KitState).httpKit = value;
}
