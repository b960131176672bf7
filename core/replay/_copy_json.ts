/**
 * A copy of `json` (a value parsed from JSON) that shares its strings: what replay hands the loop
 * instead of a recorded payload, so the loop can never change the log's copy. Pure; cheaper than
 * `structuredClone`, which copies every string too.
 */
export function copyJson<T>(json: T): T {
  if (typeof json !== "object" || json === null) return json;
  if (Array.isArray(json)) return json.map(copyJson) as T;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(json)) {
    const value = copyJson((json as Record<string, unknown>)[key]);
    // Assigning `__proto__` would set the prototype; JSON.parse makes it an own member.
    if (key === "__proto__") {
      Object.defineProperty(copy, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else copy[key] = value;
  }
  return copy as T;
}
