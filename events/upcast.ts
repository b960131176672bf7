import { CURRENT_VERSION } from "./event_types.ts";

/** A parsed log line before validation: whatever JSON object the line held. */
export type RawEvent = Record<string, unknown>;

/**
 * One migration step: turns a line of version `n` into a line of version `n + 1`. It only has
 * to reshape fields; the pipeline stamps the new `v`. Must be pure and must not mutate `raw`.
 */
export type Upcaster = (raw: RawEvent) => RawEvent;

/** Migration steps keyed by the version they upgrade from. */
export type UpcasterTable = Readonly<Partial<Record<number, Upcaster>>>;

/** The steps this build ships, one small function per version. */
export const UPCASTERS: UpcasterTable = { 1: upcastV1 };

/** How v1 worded a call cut off by max_tokens and a call a new prompt superseded. */
const V1_NOT_RUN = [
  "Not run: your reply hit the output token limit (max_tokens) while this call was being written",
  "Not run: the session was interrupted before this call started.",
];

/**
 * v1 → v2: a model call is a round, not a turn (`turn.started.turnsBefore` → `roundsBefore`,
 * `turn.ended.turns` → `rounds`), and every result the harness made up without running the tool
 * names why in `outcome`: v1 wrote `interrupted` for calls that never started and nothing for a
 * call cut off by max_tokens; both are `not_run` now (v1 worded both "Not run: …").
 */
function upcastV1(raw: RawEvent): RawEvent {
  const data = raw.data;
  if (typeof data !== "object" || data === null) return raw;
  const fields = data as Record<string, unknown>;
  switch (raw.type) {
    case "turn.started": {
      const { turnsBefore, ...rest } = fields;
      return { ...raw, data: { roundsBefore: turnsBefore, ...rest } };
    }
    case "turn.ended": {
      const { reason, turns, ...rest } = fields;
      return { ...raw, data: { reason, rounds: turns, ...rest } };
    }
    case "tool.completed": {
      // Only the two results v1's loop made up, never a tool's own output that says "Not run".
      const made = fields.isError === true && fields.durationMs === 0 &&
        typeof fields.content === "string" &&
        V1_NOT_RUN.some((prefix) => (fields.content as string).startsWith(prefix));
      if (!made || !(fields.outcome === undefined || fields.outcome === "interrupted")) {
        return raw;
      }
      return { ...raw, data: { ...fields, outcome: "not_run" } };
    }
    default:
      return raw;
  }
}

/**
 * Bring `raw` from its version `raw.v` up to `target` by applying one step per version.
 * Returns the upgraded line, or a reason string when `raw.v` is not an integer below or equal to
 * `target` or a step is missing. Pure (given pure steps); never throws unless a step throws.
 * `raw.v` greater than `target` is the caller's "newer version" case and is reported as a reason.
 */
export function upcast(
  raw: RawEvent,
  table: UpcasterTable = UPCASTERS,
  target: number = CURRENT_VERSION,
): RawEvent | string {
  const from = raw.v;
  if (from === undefined) return `missing "v"`;
  if (typeof from !== "number" || !Number.isInteger(from)) {
    return `"v" must be an integer, found ${JSON.stringify(from)}`;
  }
  if (from > target) return `version ${from} is newer than ${target}`;
  let current = raw;
  for (let v = from; v < target; v++) {
    const step = table[v];
    if (step === undefined) {
      return `no upcaster from version ${v} (this build reads version ${target})`;
    }
    current = { ...step(current), v: v + 1 };
  }
  return current;
}
