/**
 * Waits until a server answers `GET /health/ready` with 200 over HTTP, or
 * until `stopped()` says to give up. Each try has its own short time limit.
 */
export async function waitUntilReady(baseUrl: string, stopped: () => boolean, timeoutMs = 120_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!stopped() && Date.now() < deadline) {
    try {
      const res = await fetch(`${baseUrl}/health/ready`, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      if (res.status === 200) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
