/**
 * Small statistics and a plain-text table for the scale bench's summary. All pure.
 *
 * @module
 */

/** The median of `values`; NaN when empty. */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** The `q` quantile of `values` (linear between ranks); NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = sorted[Math.floor(at)] ?? NaN;
  const high = sorted[Math.ceil(at)] ?? NaN;
  return low + (high - low) * (at - Math.floor(at));
}

/** Least-squares line through the points: `y ≈ intercept + slope · x`. NaN for fewer than 2. */
export function linearFit(
  points: readonly { x: number; y: number }[],
): { slope: number; intercept: number } {
  const n = points.length;
  if (n < 2) return { slope: NaN, intercept: NaN };
  let sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const { x, y } of points) {
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return { slope, intercept: (sy - slope * sx) / n };
}

/** `value` with `digits` decimals and a unit, or "n/a" when it is not a finite number. */
export function fmt(value: number, unit: string, digits = 1): string {
  return Number.isFinite(value) ? `${value.toFixed(digits)}${unit ? ` ${unit}` : ""}` : "n/a";
}

/** "met", "NOT met" or "n/a" for a figure against its target. */
export function verdict(value: number, meets: (value: number) => boolean): string {
  if (!Number.isFinite(value)) return "n/a";
  return meets(value) ? "met" : "NOT met";
}

/** Rows of cells as left-aligned columns separated by two spaces, first row a header. */
export function table(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => widths[i] = Math.max(widths[i] ?? 0, cell.length));
  }
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ").trimEnd())
    .join("\n");
}
