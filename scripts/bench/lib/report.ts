/**
 * The benchmark's result rows and the table printed at the end.
 * A row holds one figure, the goal it is held to and, when the goal is
 * relative, the anchor measured in the same run (so the ratio, not the
 * absolute figure, says whether the goal is met on a loaded machine).
 */
import os from 'node:os';

export interface Row {
  /** What was measured, e.g. `GET /heroes (10 heroes, 50 conn.)`. */
  figure: string;
  /** The measured value, already formatted with its unit. */
  value: string;
  /** The anchor measured in the same run, formatted, when there is one. */
  anchor?: string;
  /** value / anchor, when the goal is a ratio. */
  ratio?: number;
  /** The goal in words, e.g. `≥ 1.0× anchor, p99 < 10 ms`. */
  goal?: string;
  /** Whether the goal is met; undefined for figures without a goal. */
  meets?: boolean;
}

export function formatRate(perSecond: number, unit = 'req/s'): string {
  return `${perSecond.toFixed(perSecond < 100 ? 1 : 0)} ${unit}`;
}

export function formatMb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}

/** A Markdown table (it pastes into the README as it is). */
export function formatReport(rows: readonly Row[], settings: string): string {
  const header = ['figure', 'measured', 'anchor (same run)', 'ratio', 'goal', 'result'];
  const lines = rows.map((row) => [
    row.figure,
    row.value,
    row.anchor ?? '',
    row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}×`,
    row.goal ?? '',
    row.meets === undefined ? '' : row.meets ? 'meets' : 'MISSES',
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
  const format = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    `Heroes service benchmark: ${os.cpus().length} cores, load average ${os.loadavg().map((n) => n.toFixed(2)).join(' ')}, Node ${process.version}, ${settings}`,
    '',
    format(header),
    format(widths.map((w) => '-'.repeat(w))),
    ...lines.map(format),
  ].join('\n');
}
