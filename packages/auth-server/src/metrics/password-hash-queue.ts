/**
 * The hook behind the `password_hash_queue_depth` gauge: whatever bounds
 * the bcrypt work of this process registers how many hashes wait, and the
 * metrics read it at each scrape. Until one registers, the gauge reads 0
 * (nothing queues: every hash goes straight to libuv's thread pool).
 *
 * Usage:
 *   reportPasswordHashQueue(() => queue.size);
 */
let depth: () => number = () => 0;

export function reportPasswordHashQueue(read: () => number): void {
  depth = read;
}

export function passwordHashQueueDepth(): number {
  return depth();
}
