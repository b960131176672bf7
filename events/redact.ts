/** The text that replaces a secret in the log. */
export const REDACTED = "[REDACTED]";

/** Secrets shorter than this are ignored: replacing them would mangle ordinary text. */
export const MIN_SECRET_LENGTH = 8;

/** Turns one serialized log line into the same line with every known secret replaced. */
export type Redactor = (line: string) => string;

/**
 * Build a redactor for serialized JSON lines. Every occurrence of each secret inside a JSON
 * string (keys included) becomes `[REDACTED]`, whether it appears as JSON-escaped once (a plain
 * string value) or twice or three times (JSON text held in a string, e.g. a tool's JSON output).
 * Longest forms go first, so a secret containing another is removed whole. Matches are only
 * taken on escape-sequence boundaries and never outside strings, so the line stays valid JSON.
 * Empty and short secrets (< {@link MIN_SECRET_LENGTH} chars) are ignored.
 * The returned function is pure and never throws; with no usable secrets it returns its input.
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const needles = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    let form = secret;
    for (let depth = 0; depth < 3; depth++) {
      form = JSON.stringify(form).slice(1, -1);
      needles.add(form);
    }
  }
  const ordered = [...needles].sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (line) => line;
  return (line) => ordered.some((n) => line.includes(n)) ? redactStrings(line, ordered) : line;
}

/** Apply {@link redactBody} to the body of every string literal of a JSON text. */
function redactStrings(json: string, needles: readonly string[]): string {
  let out = "";
  let from = 0;
  for (;;) {
    const open = json.indexOf('"', from);
    if (open < 0) break;
    let close = open + 1;
    while (close < json.length && json[close] !== '"') close += json[close] === "\\" ? 2 : 1;
    out += json.slice(from, open + 1) + redactBody(json.slice(open + 1, close), needles);
    from = close;
    if (from < json.length) {
      out += '"';
      from++;
    }
  }
  return out + json.slice(from);
}

/** Replace needles in a JSON string body where they start on an escape-sequence boundary. */
function redactBody(body: string, needles: readonly string[]): string {
  let text = body;
  for (const needle of needles) {
    let at = text.indexOf(needle);
    while (at >= 0) {
      if (backslashesBefore(text, at) % 2 === 0) {
        text = text.slice(0, at) + REDACTED + text.slice(at + needle.length);
        at = text.indexOf(needle, at + REDACTED.length);
      } else {
        at = text.indexOf(needle, at + 1);
      }
    }
  }
  return text;
}

function backslashesBefore(text: string, index: number): number {
  let count = 0;
  while (index - count - 1 >= 0 && text[index - count - 1] === "\\") count++;
  return count;
}
