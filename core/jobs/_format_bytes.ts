import { formatNumber } from "../tools/_format.ts";

const UNITS = ["KiB", "MiB", "GiB", "TiB"];

/**
 * A number of bytes for a person or the model: `900 bytes`, `16 KiB`, `4 MiB`, `1.8 GiB` (one
 * decimal below 10 of a unit, none from 10 on, and none when it is whole). Pure.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} ${bytes === 1 ? "byte" : "bytes"}`;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value >= 10 || Number.isInteger(value)
    ? formatNumber(Math.round(value))
    : value.toFixed(1);
  return `${shown} ${UNITS[unit]}`;
}
