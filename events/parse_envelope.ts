import { type Envelope, EVENT_TYPES } from "./event_types.ts";

const KNOWN_TYPES: ReadonlySet<string> = new Set(EVENT_TYPES);

/**
 * The event types a log may hold: rein's own, plus the types of mechanisms declared outside
 * rein (see `ExtensionPayloads`), which a store or reader must be told about. Pure.
 */
export function knownEventTypes(extensions: readonly string[] = []): ReadonlySet<string> {
  return extensions.length === 0 ? KNOWN_TYPES : new Set([...EVENT_TYPES, ...extensions]);
}

/**
 * Check that a parsed log line has the envelope shape: integer `v`, positive integer `seq`,
 * string `ts`, a known `type` (rein's own, or one of `knownTypes`), string `session` and `agent`, and an object `data`. Extra keys are
 * allowed. The payload inside `data` is not checked field by field: that is what the closed union
 * and the versioned writer guarantee, and this runs on every line of every rebuild.
 *
 * Returns the same object typed as an {@link Envelope}, or a reason string naming the first
 * problem (`missing "session"`). Pure; never throws.
 */
export function parseEnvelope(
  raw: unknown,
  knownTypes: ReadonlySet<string> = KNOWN_TYPES,
): Envelope | string {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return `expected a JSON object, found ${describe(raw)}`;
  }
  const line = raw as Record<string, unknown>;
  const { v, seq, ts, type, session, agent, data } = line;
  if (!Number.isInteger(v)) return fieldProblem("v", v, "an integer");
  if (!Number.isInteger(seq) || (seq as number) < 1) {
    return fieldProblem("seq", seq, "a positive integer");
  }
  if (typeof ts !== "string") return fieldProblem("ts", ts, "a string");
  if (typeof type !== "string" || !knownTypes.has(type)) {
    return type === undefined ? `missing "type"` : `unknown event type ${describe(type)}`;
  }
  if (typeof session !== "string") return fieldProblem("session", session, "a string");
  if (typeof agent !== "string") return fieldProblem("agent", agent, "a string");
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return fieldProblem("data", data, "an object");
  }
  // Every field the union relies on was checked above.
  return line as unknown as Envelope;
}

function fieldProblem(field: string, value: unknown, expected: string): string {
  if (value === undefined) return `missing "${field}"`;
  return `"${field}" must be ${expected}, found ${describe(value)}`;
}

function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
