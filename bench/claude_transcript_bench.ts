/**
 * The Claude Code transcript written before every hook run: `deno bench -A
 * bench/claude_transcript_bench.ts`. A session of 500 rounds (a prompt, an answer with text and a
 * bash call, its 2 KB result) in a JSONL log; "whole" is the first write in a process (reads the
 * session's lines of the log and writes the file), "one round" is what each later hook pays: one
 * round appended to the log (the baseline, which the loop pays anyway), then the writer reads the
 * new lines and appends theirs.
 */
import { join } from "node:path";
import type { NewEvent } from "../events/event_types.ts";
import { openJsonlStore } from "../events/jsonl_store.ts";
import { claudeTranscriptWriter } from "../core/hooks/claude_transcript.ts";
import { evolve, initialState, type State } from "../core/state/state.ts";
import { respondedData, startedData } from "../testing/event_factory.ts";

const ROUNDS = 500;
const dir = await Deno.makeTempDir({ prefix: "rein-transcript-bench-" });
globalThis.addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
const logPath = join(dir, "events.jsonl");
let state: State = initialState();
const store = await openJsonlStore(logPath, {
  clock: () => new Date("2026-11-29T00:00:00.000Z"),
  onEvent: (event) => state = evolve(state, event),
});

const event = (type: string, data: unknown): NewEvent =>
  ({ type, session: "s1", agent: "lead", data }) as NewEvent;
let calls = 0;
function round(): NewEvent[] {
  const id = `toolu_${++calls}`;
  return [
    event("user.prompted", { text: `Round ${calls}: run the tests` }),
    event("model.responded", {
      ...respondedData([
        { type: "text", text: "Running them." },
        { type: "tool_use", id, name: "bash", input: { command: "deno task test" } },
      ]),
      messageId: `msg_${calls}`,
    }),
    event("tool.completed", {
      callId: id,
      name: "bash",
      content: "ok ".repeat(700),
      isError: false,
      durationMs: 5,
    }),
  ];
}

await store.append([event("session.started", startedData({ workspace: dir }))]);
for (let i = 0; i < ROUNDS; i++) await store.append(round());
const live = claudeTranscriptWriter(logPath, { version: "0.1.0" });
await live(state, "s1");

Deno.bench({ name: "whole: first write of a 500-round session", group: "first" }, async () => {
  await claudeTranscriptWriter(logPath, { version: "0.1.0" })(state, "s1");
});

Deno.bench({ name: "append one round to the log", group: "round", baseline: true }, async () => {
  await store.append(round());
});

Deno.bench(
  { name: "append one round, then bring the transcript up to date", group: "round" },
  async () => {
    await store.append(round());
    await live(state, "s1");
  },
);
