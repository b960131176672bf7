/** A JSON object (not an array, not null): what settings, hook output and tool input must be. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
