import fc from "fast-check";
import type { Envelope, NewEvent } from "../events/event_types.ts";

/**
 * Random logs for the fold's properties: a few sessions (some forked from others at an earlier
 * seq) whose agents prompt, run turns, answer with usage, switch models, spawn helpers, write
 * todos, decide permissions and note memories, interleaved. Test helper.
 */
export function randomLog(): fc.Arbitrary<Envelope[]> {
  const step = fc.record({
    session: fc.nat({ max: 3 }),
    agent: fc.constantFrom("lead", "lead", "mate"),
    kind: fc.nat({ max: 11 }),
    n: fc.nat({ max: 1000 }),
    text: fc.constantFrom("fix it", "two\nlines", "run the tests", "ok"),
  });
  return fc.array(step, { minLength: 5, maxLength: 150, size: "max" }).map((steps) => {
    const events: Envelope[] = [];
    const started: string[] = [];
    const push = (event: NewEvent) => {
      const seq = events.length + 1;
      const ts = `2026-11-22T10:${String(Math.floor(seq / 60) % 60).padStart(2, "0")}:00.000Z`;
      events.push({ v: 2, seq, ts, ...event } as Envelope);
    };
    for (const { session: index, agent, kind, n, text } of steps) {
      const session = `s${index}`;
      if (!started.includes(session)) {
        const source = started[n % Math.max(1, started.length)];
        const fork = source !== undefined && n % 3 === 0;
        push({
          type: "session.started",
          session,
          agent: "lead",
          data: {
            model: "claude-a",
            workspace: "/w",
            startedAt: "2026-11-22T10:00:00.000Z",
            maxTokens: 1000,
            platform: "linux",
            ...(fork ? { forkedFrom: { session: source, seq: events.length } } : {}),
          },
        });
        started.push(session);
        continue;
      }
      const origin = { session, agent };
      const usage = { input_tokens: n, output_tokens: n % 7, cache_read_input_tokens: n % 3 };
      switch (kind) {
        case 0:
          push({
            ...origin,
            type: "user.prompted",
            data: n % 5 === 0 ? { text, refused: "no" } : { text },
          });
          break;
        case 1:
          push({ ...origin, type: "turn.started", data: { roundsBefore: 0, maxTurns: null } });
          break;
        case 2:
          push({
            ...origin,
            type: "turn.ended",
            data: n % 2 === 0
              ? { reason: "completed", rounds: 1 }
              : { reason: "failed", rounds: 1, message: `boom ${n}` },
          });
          break;
        case 3:
        case 4:
          push({
            ...origin,
            type: "model.responded",
            data: {
              messageId: `m${n}`,
              model: "claude-a",
              content: [{ type: "text", text: `answer ${n}` }],
              stopReason: "end_turn",
              usage,
              requestId: `r${n}`,
            },
          });
          break;
        case 5:
          push({
            ...origin,
            type: "model.switched",
            data: { model: `claude-${n % 3}`, maxTokens: 500 + n, from: "claude-a" },
          });
          break;
        case 6:
          push({
            session,
            agent: `helper${n % 2}`,
            type: "agent.spawned",
            data: {
              parent: "lead",
              callId: `c${n}`,
              type: "general-purpose",
              description: "help",
              model: `claude-h${n % 2}`,
              maxTokens: 800,
              maxTurns: 10,
            },
          });
          break;
        case 7:
          push({
            ...origin,
            type: "todo.updated",
            data: { todos: [{ content: text, status: "pending", activeForm: text }] },
          });
          break;
        case 8:
          push({ ...origin, type: "memory.noted", data: { path: "CLAUDE.md", text } });
          break;
        case 9:
          push({ ...origin, type: "reminder.added", data: { source: "todos", text } });
          break;
        case 10:
          push({ ...origin, type: "permission.mode_changed", data: { mode: "plan" } });
          break;
        default:
          push({
            ...origin,
            type: "model.requested",
            data: { model: "claude-a", digest: "d", attempt: 1 },
          });
      }
    }
    return events;
  });
}
