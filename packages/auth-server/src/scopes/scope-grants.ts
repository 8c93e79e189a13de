/**
 * Whether an allowed scope grants a requested one (Aqueduct `AuthScope`,
 * REFERENCE §4): a parent scope grants its sub-scopes.
 *
 * Rules enforced here:
 * - a scope is segments separated by `:`; only the last segment may carry
 *   a `.modifier` (`user:profile.readonly`);
 * - equal strings always match;
 * - `user` grants `user:foo` and `user:foo:bar` (its segments are a prefix
 *   of the requested ones, name by name); `user:foo` does not grant `user`;
 * - a modifier restricts: `user` grants `user.readonly` and
 *   `user:foo.readonly`, while `user.readonly` grants neither `user` nor
 *   `user:foo` (nor `user.write`);
 * - a scope outside this structure (an empty segment, a modifier before the
 *   last segment) only matches itself.
 */
interface Segment {
  name: string;
  modifier: string | undefined;
}

/** `allowed` grants `requested`. Usage: `grantsScope('heroes', 'heroes:read')` → true */
export function grantsScope(allowed: string, requested: string): boolean {
  if (allowed === requested) return true;
  const parent = parseScope(allowed);
  const child = parseScope(requested);
  if (!parent || !child || parent.length > child.length) return false;
  return parent.every((segment, index) => {
    const other = child[index] as Segment;
    if (segment.name !== other.name) return false;
    return segment.modifier === undefined || segment.modifier === other.modifier;
  });
}

function parseScope(scope: string): Segment[] | undefined {
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
