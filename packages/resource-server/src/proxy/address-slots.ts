/**
 * Forwarded requests in flight per client address (docs/http.md, "Fair forwarding"): at most `max`, so one address
 * cannot take the upstream pool (`ctx.ip`, an IPv6 client by its /64 as every limit counts).
 * Usage: const release = slots.take(ctx.ip); // undefined: full, answer 429; release once when done
 */
import { addressBucket } from '@heroes/platform';

export class AddressSlots {
  readonly #inFlight = new Map<string, number>();

  constructor(readonly max: number) {}

  /** A slot for `address`, or undefined when it already holds `max`. */
  take(address: string): (() => void) | undefined {
    const bucket = addressBucket(address);
    const held = this.#inFlight.get(bucket) ?? 0;
    if (held >= this.max) return undefined;
    this.#inFlight.set(bucket, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#inFlight.get(bucket) ?? 1) - 1;
      if (left === 0) this.#inFlight.delete(bucket);
      else this.#inFlight.set(bucket, left);
    };
  }

  /** Requests in flight from `address` (tests, metrics). */
  held(address: string): number {
    return this.#inFlight.get(addressBucket(address)) ?? 0;
  }
}
