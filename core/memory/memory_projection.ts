import type { Envelope, MemoryNoted } from "../../events/event_types.ts";
import type { Projection } from "../state/projection.ts";

/** A session's `#` notes and how many of them each agent has been reminded of. */
export interface SessionNotes {
  /** Every note saved in the session, in log order, with the agent it was saved for. */
  notes: (MemoryNoted & { agent: string })[];
  /** Per agent: how many of its notes a memory reminder has covered. */
  reminded: Record<string, number>;
  /** The `.claude/rules/` files with `paths:` that joined the context already (their paths). */
  rulesShown?: string[];
}

/** Notes per session id. */
export type MemoryNotes = Record<string, SessionNotes>;

/** The reminder source of a path rule that joined the context: this, then the rule's path. */
export const PATH_RULE_REMINDER = "memory.rule:";

/** The `source` of the reminders that tell an agent about notes saved during its session. */
export const NOTE_REMINDER_SOURCE = "memory";

/**
 * The `#` notes of each session (`memory.noted`), and the reminders that told the agents about
 * them (`reminder.added` from this mechanism): a reminder covers every note of its agent saved
 * before it. Pure.
 */
export const memoryProjection: Projection<MemoryNotes> = {
  key: "memory",
  canHandle: ["memory.noted", "reminder.added"],
  initial: () => ({}),
  evolve(sessions, event: Envelope) {
    if (event.type === "memory.noted") {
      const session = sessions[event.session] ??= { notes: [], reminded: {} };
      session.notes.push({ ...event.data, agent: event.agent });
    } else if (
      event.type === "reminder.added" && event.data.source.startsWith(PATH_RULE_REMINDER)
    ) {
      const session = sessions[event.session] ??= { notes: [], reminded: {} };
      (session.rulesShown ??= []).push(event.data.source.slice(PATH_RULE_REMINDER.length));
    } else if (event.type === "reminder.added" && event.data.source === NOTE_REMINDER_SOURCE) {
      const session = sessions[event.session];
      if (session) {
        session.reminded[event.agent] = session.notes.filter((n) => n.agent === event.agent).length;
      }
    }
    return sessions;
  },
};
