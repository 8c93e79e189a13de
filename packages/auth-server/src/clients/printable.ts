/**
 * Shows control and non-ASCII characters as `\uXXXX` escapes so an error
 * message that quotes user input stays one readable line.
 *
 * Usage: `printable('tab\tid')` → `'tab\\u0009id'`
 */
export function printable(value: string): string {
  return value.replace(/[^\x20-\x7E]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
