/**
 * Per-request link from the kit middleware to readBody(): the registry and
 * body limit in force, plus the decoded-once raw body. Kept in a WeakMap keyed
 * by the Node request, so it survives koa-mount and routers and is freed
 * with the request.
 */
import type { IncomingMessage } from 'node:http';
import type { ResolvedHttpKitOptions } from './options.ts';

export interface RequestSettings {
  options: ResolvedHttpKitOptions;
  /** Raw body bytes once read (a request stream can be read only once). */
  body?: Promise<Buffer>;
}

const settings = new WeakMap<IncomingMessage, RequestSettings>();

export function attachSettings(req: IncomingMessage, options: ResolvedHttpKitOptions): void {
  settings.set(req, { options });
}

export function getSettings(req: IncomingMessage): RequestSettings | undefined {
  return settings.get(req);
}

export function setSettings(req: IncomingMessage, value: RequestSettings): void {
  settings.set(req, value);
}
