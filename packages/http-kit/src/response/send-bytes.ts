/**
 * Sends a byte body as it is, automatic encoding off (`ctx.state.encodeBody = false`; docs/http.md, "Responses").
 * Usage: sendBytes(ctx, pngBytes, 'image/png')
 */
import type { Context } from 'koa';
import { InternalServerError } from '../errors/client-errors.ts';
import { toByteBuffer } from './is-byte-body.ts';

export function sendBytes(ctx: Context, bytes: Uint8Array | readonly number[], type = 'application/octet-stream'): void {
  const buffer = toByteBuffer(bytes);
  if (!buffer) throw new InternalServerError('sendBytes needs bytes (Uint8Array or integers 0-255)');
  // The type first: a Buffer body assigned without one makes Koa look up a type ('bin') of its own.
  ctx.type = type;
  ctx.body = buffer;
  ctx.state['encodeBody'] = false;
}
