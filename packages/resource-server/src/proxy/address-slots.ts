/**
 * Forwarded requests in flight per client address (docs/http.md, "Fair
 * forwarding"): one address cannot hold more than `max` of them, so it
 * cannot take the upstream pool from everyone else. The address is the
 * platform's client-address rule (`ctx.ip`, TRUST_PROXY), an IPv6 client
 * counted by its /64 (addressBucket), as every other limit counts it.
 *
 * Usage:
 *   const slots = new AddressSlots(32);
 *   const release = slots.take(ctx.ip); // undefined: full, answer 429
 *   release?.(); // once, when the request no longer holds a slot (more calls do nothing)
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
