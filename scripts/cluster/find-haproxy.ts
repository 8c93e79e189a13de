/** The haproxy binary (Debian's package installs /usr/sbin/haproxy), or undefined. */
import { findTool, haproxySpec } from '../test/find-tool.ts';

export function findHaproxy(): string | undefined {
  return findTool(haproxySpec);
}
