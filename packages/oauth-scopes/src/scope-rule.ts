/**
 * The one parent/sub-scope rule: what a client may be granted, what a token may do. Segments split by `:`, a
 * `.modifier` on the last only; a parent grants its sub-scopes segment by segment (`user` → `user:foo`, never
 * `users`); a modifier restricts (`user` → `user.readonly`, not the reverse); a scope outside this structure
 * (`a::b`, `a.b:c`) grants and is granted only by itself.
 */
interface Segment {
  name: string;
  modifier: string | undefined;
}

/** `held` grants `wanted`. Usage: `grantsScope('heroes', 'heroes:read')` → true */
export function grantsScope(held: string, wanted: string): boolean {
  if (held === wanted) return true;
  const parent = parseSegments(held);
  const child = parseSegments(wanted);
  if (!parent || !child || parent.length > child.length) return false;
  return parent.every((segment, index) => {
    const other = child[index] as Segment;
    if (segment.name !== other.name) return false;
    return segment.modifier === undefined || segment.modifier === other.modifier;
  });
}

/** Some scope of `held` grants `wanted`. Usage: `isGranted(['heroes'], 'heroes:write')` → true */
export function isGranted(held: Iterable<string>, wanted: string): boolean {
  for (const scope of held) if (grantsScope(scope, wanted)) return true;
  return false;
}

function parseSegments(scope: string): Segment[] | undefined {
  const parts = scope.split(':');
  const segments: Segment[] = [];
  for (const [index, part] of parts.entries()) {
    const dot = part.indexOf('.');
    if (dot !== -1 && index !== parts.length - 1) return undefined;
    const name = dot === -1 ? part : part.slice(0, dot);
    const modifier = dot === -1 ? undefined : part.slice(dot + 1);
    if (name === '' || modifier === '' || modifier?.includes('.')) return undefined;
    segments.push({ name, modifier });
  }
  return segments;
}
