/**
 * Test helper (import from '@heroes/test-kit'): speaks raw bytes over TCP, for requests node:http would refuse
 * to send (malformed, oversized headers, lying Content-Length, stalled bodies).
 */
import net from 'node:net';

export interface RawExchange {
  /** Everything the server sent, as latin1 text. */
  text: string;
  /** Whether the server closed the connection before `waitMs` ran out. */
  closed: boolean;
  /** Milliseconds from connecting to the first byte received (undefined if none). */
  firstByteMs: number | undefined;
  /** Milliseconds from connecting to the close (or to giving up). */
  ms: number;
}

/**
 * Usage:
 *   const res = await exchange(port, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', { waitMs: 2000 });
 */
export function exchange(
  port: number,
  payload: string | Buffer,
  options: { waitMs?: number; end?: boolean; /** Stop as soon as the answer so far matches. */ until?: RegExp } = {},
): Promise<RawExchange> {
  const waitMs = options.waitMs ?? 5_000;
  return new Promise((resolve) => {
    const started = performance.now();
    const parts: Buffer[] = [];
    let firstByteMs: number | undefined;
    const socket = net.connect(port, '127.0.0.1', () => {
      // Kept open by default: a half-close would make Node abort the request.
      if (options.end) socket.end(payload);
      else socket.write(payload);
    });
    const finish = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text: Buffer.concat(parts).toString('latin1'), closed, firstByteMs, ms: performance.now() - started });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (part: Buffer) => {
      firstByteMs ??= performance.now() - started;
      parts.push(part);
      if (options.until?.test(Buffer.concat(parts).toString('latin1'))) finish(false);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => finish(true));
  });
}

/** The JSON body of a raw HTTP/1.1 answer (after the blank line). */
export function jsonBody(text: string): unknown {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
}
