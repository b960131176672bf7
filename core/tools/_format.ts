/**
 * Formats an integer with thousands separators ("56,789"). Pure. Done by hand rather than with
 * `toLocaleString`, which loads the ICU number library (about 17 ms and 5 MB at start-up).
 */
export function formatNumber(n: number): string {
  const sign = n < 0 ? "-" : "";
  return sign + String(Math.abs(Math.trunc(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** "1 line", "2 lines", "1,234 lines". Pure. */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatNumber(n)} ${n === 1 ? singular : pluralForm}`;
}

/** The message of a thrown value, for wording a failure to the model. Pure. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Counts lines the way an editor does: a trailing newline does not start another line. Pure. */
export function countLines(text: string): number {
  if (text === "") return 0;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return text.endsWith("\n") ? lines - 1 : lines;
}
