/**
 * application/json: text ⇄ any JSON value. Values JSON cannot represent
 * (BigInt, circular structures, `undefined`, functions) throw on encode.
 */
import type { Codec } from './codec.ts';

export class JsonCodec implements Codec {
  decode(input: string | Buffer): unknown {
    return JSON.parse(typeof input === 'string' ? input : input.toString('utf8'));
  }

  encode(value: unknown): string {
    const text: unknown = JSON.stringify(value);
    if (typeof text !== 'string') throw new TypeError(`cannot encode ${typeof value} as JSON`);
    return text;
  }
}
