import type { Envelope } from "../../events/event_types.ts";
import { canonicalJson } from "../request/canonical_json.ts";

/**
 * Whether a replayed event is the recorded one: the same type, session, agent and data, whatever
 * the order of keys in the data (seq, ts and version aside). Pure. The data are walked once in
 * the order they have ({@link sameJson}); only data that differ there are written out and compared
 * again with sorted keys (a log written by an older rein may order keys otherwise).
 */
export function sameEvent(
  recorded: Envelope,
  replayed: { type: string; session: string; agent: string; data: unknown },
): boolean {
  if (
    recorded.type !== replayed.type || recorded.session !== replayed.session ||
    recorded.agent !== replayed.agent
  ) return false;
  if (replayed.data === recorded.data || sameJson(replayed.data, recorded.data)) return true;
  const want = JSON.stringify(recorded.data);
  const got = JSON.stringify(replayed.data);
  return want === got || canonicalJson(JSON.parse(want)) === canonicalJson(JSON.parse(got));
}

/**
 * Whether `value` is written as the same JSON as `json` (a value parsed from JSON), keys in the
 * same order, so that parsing what `value` is written as gives `json` again. Pure; allocates
 * nothing for strings. False for anything JSON would write otherwise than it is (`undefined`
 * members, `toJSON`, numbers that are not finite), even where the text might still agree.
 */
export function sameJson(value: unknown, json: unknown): boolean {
  if (typeof value !== "object" || value === null) {
    if (value !== json) return false;
    return value === null || typeof value === "string" || typeof value === "boolean" ||
      (typeof value === "number" && Number.isFinite(value));
  }
  if (typeof json !== "object" || json === null) return false;
  // The parsed value itself (a recorded run served again) is written as what it was parsed from.
  if (value === json) return true;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  if (Array.isArray(json)) {
    if (!Array.isArray(value) || value.length !== json.length) return false;
    for (let i = 0; i < json.length; i++) if (!sameJson(value[i], json[i])) return false;
    return true;
  }
  if (Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const jsonKeys = Object.keys(json);
  if (keys.length !== jsonKeys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (key !== jsonKeys[i]) return false;
    const member = (value as Record<string, unknown>)[key];
    if (!sameJson(member, (json as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** Why a replayed event differs from the recorded one, in words. Pure. */
export function mismatch(expected: Envelope, event: Envelope): string {
  if (expected.type !== event.type) {
    return `the replayed loop produced ${event.type} where the log has ${expected.type}`;
  }
  if (event.type === "model.requested") {
    return "the replayed loop would send a different model request (its digest differs): the " +
      "conversation, the system prompt or the tool definitions are not what was sent then";
  }
  return `the replayed loop produced a different ${event.type} than the log has`;
}
