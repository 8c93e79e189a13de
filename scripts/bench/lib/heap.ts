/**
 * A server's V8 heap as its own /metrics reports it (prom-client's default
 * collectors; /metrics answers loopback callers): what part of an RSS figure
 * is JavaScript heap, and what part is code, buffers and native memory.
 */
export interface HeapFigures {
  total: number;
  used: number;
  external: number;
}

const NAMES = { total: 'nodejs_heap_size_total_bytes', used: 'nodejs_heap_size_used_bytes', external: 'nodejs_external_memory_bytes' } as const;

/** undefined when the server has no readable /metrics. */
export async function heapOf(baseUrl: string): Promise<HeapFigures | undefined> {
  try {
    const res = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(5_000) });
    const text = await res.text();
    if (res.status !== 200) return undefined;
    const read = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    const figures = { total: read(NAMES.total), used: read(NAMES.used), external: read(NAMES.external) };
    return Object.values(figures).every(Number.isFinite) ? figures : undefined;
  } catch {
    return undefined;
  }
}

/** `; heap 58 MB (used 31), external 6 MB` or nothing. */
export function formatHeap(heap: HeapFigures | undefined): string {
  if (!heap) return '';
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  return `; V8 heap ${mb(heap.total)} MB (used ${mb(heap.used)}), external ${mb(heap.external)} MB`;
}
