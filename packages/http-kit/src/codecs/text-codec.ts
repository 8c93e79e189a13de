/**
 * text/*: the body is a string. Encoding accepts only strings.
 */
import type { Codec } from './codec.ts';

export class TextCodec implements Codec {
  decode(input: string | Buffer): string {
    return typeof input === 'string' ? input : input.toString('utf8');
  }

  encode(value: unknown): string {
    if (typeof value !== 'string') throw new TypeError(`a text body must be a string, got ${typeof value}`);
    return value;
  }
}
