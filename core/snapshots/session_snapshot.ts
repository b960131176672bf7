import type { ConversationMessage } from "../../events/event_types.ts";
import { asConversationMessages } from "../state/message.ts";
import type { PlacedStartPoint } from "../../events/start_point.ts";
import type { Projection } from "../state/projection.ts";
import type { SessionView } from "../state/sessions.ts";
import type { State } from "../state/state.ts";
import { checkSnapshotText, snapshotText } from "./snapshot_files.ts";
import { placeOf, sessionName, type SnapshotPlace } from "./snapshot_place.ts";

/** One session's full state as of a place in the log, from a snapshot that holds there. */
export interface SessionStart {
  view: SessionView;
  /** The session's entry in each mechanism slice, by projection key (absent: none yet). */
  entries: Record<string, unknown>;
  point: PlacedStartPoint;
}

/**
 * The snapshot of session `id` of the log at `logPath`, if it can be trusted (this build's fold
 * code, an entry for each of `projections` (it may hold more: each slice is its own fold),
 * intact, its place holding in the log) and is at or before `atMost`; undefined otherwise. Never
 * throws for a bad file.
 */
export async function sessionSnapshot(
  log: string | SnapshotPlace,
  id: string,
  projections: readonly Projection[],
  atMost = Infinity,
): Promise<SessionStart | undefined> {
  const place = placeOf(log);
  const name = sessionName(id);
  const text = await place.read(name);
  const file = text === undefined ? undefined : await checkSnapshotText(place.pathOf(name), text);
  if (file === undefined || file.problem !== undefined) return undefined;
  const { header } = file;
  if (header.kind !== "session" || header.session !== id || header.seq > atMost) return undefined;
  if (!holdsKeys(header.projections ?? [], projections)) return undefined;
  const point = { seq: header.seq, offset: header.offset, lineHash: header.lineHash };
  if (await place.pointProblem(point) !== undefined) return undefined;
  const body = file.body as Partial<SessionStart> | null;
  if (typeof body?.view !== "object" || body.view?.id !== id) return undefined;
  // Its conversations are made frozen values again, as the fold makes them (a snapshot whose
  // messages are not messages is not trusted).
  for (const agent of Object.values(body.view.agents ?? {})) {
    const messages: unknown = agent?.messages;
    if (!Array.isArray(messages) || !messages.every(isMessage)) return undefined;
    agent.messages = asConversationMessages(messages);
  }
  return { view: body.view, entries: body.entries ?? {}, point };
}

/**
 * Store the full state of session `id` in `state` (folded up to event `seq`, whose line ends at
 * byte `offset`) as its snapshot, replacing the one before (atomically, see `writeSnapshotFile`).
 * Serialized at the call, so the state may change meanwhile. Resolves to the length of the
 * body written, or 0, writing nothing, when the state lacks the session or no line ends at
 * `offset`. Throws for an I/O error.
 */
export async function writeSessionSnapshot(
  log: string | SnapshotPlace,
  state: State,
  id: string,
  projections: readonly Projection[],
  at: { seq: number; offset: number },
  takenAt: Date,
): Promise<number> {
  const view = state.sessions.byId[id];
  if (view === undefined) return 0;
  const entries: Record<string, unknown> = {};
  for (const { key } of projections) {
    const entry = (state.extensions[key] as Record<string, unknown> | undefined)?.[id];
    if (entry !== undefined) entries[key] = entry;
  }
  const text = JSON.stringify({ view, entries });
  const place = placeOf(log);
  const point = await place.pointAt(at.seq, at.offset);
  if (point === undefined) return 0;
  await place.write(
    sessionName(id),
    await snapshotText({
      kind: "session",
      ...point,
      takenAt: takenAt.toISOString(),
      sessions: 1,
      session: id,
      projections: projections.map((p) => p.key).sort(),
    }, text),
  );
  return text.length;
}

/** Whether a snapshot that folded the slices `keys` holds those of `projections`. Pure. */
function holdsKeys(keys: readonly string[], projections: readonly Projection[]): boolean {
  return projections.every((p) => keys.includes(p.key));
}

function isMessage(value: unknown): value is ConversationMessage {
  const message = value as Partial<ConversationMessage> | null;
  return typeof message === "object" && message !== null &&
    (message.role === "user" || message.role === "assistant") && Array.isArray(message.content) &&
    message.content.every((block) => typeof block === "object" && block !== null);
}
