import assert from "node:assert/strict";
import { join } from "node:path";
import { CURRENT_VERSION, type Envelope } from "./event_types.ts";
import { readEvents, readLog } from "./read_log.ts";
import { type RawEvent, upcast, UPCASTERS, type UpcasterTable } from "./upcast.ts";
import { tempDir } from "../testing/events.ts";

/** A pretend history, for tests only: v0 called the prompt text `prompt`, v1 calls it `text`. */
const RENAME_PROMPT: UpcasterTable = {
  0: (raw) => ({ ...raw, data: renameKey(raw.data, "prompt", "text") }),
};

function renameKey(data: unknown, from: string, to: string): Record<string, unknown> {
  const { [from]: value, ...rest } = data as Record<string, unknown>;
  return { ...rest, [to]: value };
}

const V0: RawEvent = { v: 0, seq: 1, type: "user.prompted", data: { prompt: "hi" } };

/** A line as rein wrote it at version 1. */
function v1(type: string, data: Record<string, unknown>, seq = 1): RawEvent {
  return { v: 1, seq, ts: "2026-11-22T10:00:00.000Z", type, session: "s1", agent: "lead", data };
}

/** The shipped v1 → v2 step, through the real pipeline (stops at 2 whatever comes later). */
function toV2(raw: RawEvent): RawEvent | string {
  return upcast(raw, UPCASTERS, 2);
}

/** A v1 `tool.completed` payload whose result has `content` and, if given, `outcome`. */
function completed(content: string, outcome?: string): Record<string, unknown> {
  const data = { callId: "c1", name: "bash", content, isError: true, durationMs: 0 };
  return outcome === undefined ? data : { ...data, outcome };
}

const CUT_OFF =
  "Not run: your reply hit the output token limit (max_tokens) while this call was being written, so its input may be incomplete.";
const SUPERSEDED = "Not run: the session was interrupted before this call started.";

Deno.test("the shipped table has exactly one step for each version below the current one", () => {
  const versions = Object.keys(UPCASTERS).map(Number).sort((a, b) => a - b);
  assert.deepEqual(versions, Array.from({ length: CURRENT_VERSION - 1 }, (_, i) => i + 1));
  for (const version of versions) assert.equal(typeof UPCASTERS[version], "function");
});

Deno.test("v1 → v2: turn.started's turnsBefore becomes roundsBefore", () => {
  const given = v1("turn.started", { turnsBefore: 3, maxTurns: 10 });
  const then = toV2(given);
  assert.deepEqual(then, { ...given, v: 2, data: { roundsBefore: 3, maxTurns: 10 } });
});

Deno.test("v1 → v2: turn.ended's turns becomes rounds, the reason and message stay", () => {
  const given = v1("turn.ended", { reason: "failed", turns: 4, message: "Overloaded" });
  assert.deepEqual(toV2(given), {
    ...given,
    v: 2,
    data: { reason: "failed", rounds: 4, message: "Overloaded" },
  });
  const withoutMessage = v1("turn.ended", { reason: "completed", turns: 1 });
  assert.deepEqual(toV2(withoutMessage), {
    ...withoutMessage,
    v: 2,
    data: { reason: "completed", rounds: 1 },
  });
});

Deno.test("v1 → v2: a 'Not run:' result without outcome or marked interrupted becomes not_run", () => {
  const cutOff = v1("tool.completed", completed(CUT_OFF));
  assert.deepEqual(toV2(cutOff), {
    ...cutOff,
    v: 2,
    data: completed(CUT_OFF, "not_run"),
  });
  const neverStarted = v1(
    "tool.completed",
    completed(SUPERSEDED, "interrupted"),
  );
  assert.deepEqual(toV2(neverStarted), {
    ...neverStarted,
    v: 2,
    data: completed(SUPERSEDED, "not_run"),
  });
});

Deno.test("v1 → v2: other tool results keep their outcome, or their lack of one", () => {
  const untouched = [
    completed("Cancelled by the user", "cancelled"),
    completed("Not run: the user cancelled the turn", "cancelled"),
    completed("Interrupted: rein stopped while the tool ran", "interrupted"),
    completed("total 0"),
    completed("not run: lower case is not the marker"),
    completed("Exit code 1. Not run: only the start counts"),
    { ...completed(SUPERSEDED), isError: false },
    { ...completed(CUT_OFF), durationMs: 12 },
    completed("Not run: dry-run mode"),
  ];
  for (const data of untouched) {
    const given = v1("tool.completed", data);
    assert.deepEqual(toV2(given), { ...given, v: 2 }, JSON.stringify(data));
  }
});

Deno.test("v1 → v2: every other type passes through with only its version raised", () => {
  const others = [
    v1("session.resumed", { how: "resume", withPrompt: false, maxTurns: 5 }),
    v1("user.prompted", { text: "turns: 3, Not run: yet" }),
    v1("tool.requested", { callId: "c1", name: "bash", input: { turns: 1 } }),
    v1("model.failed", {
      attempt: 1,
      kind: "overloaded",
      status: 529,
      message: "Not run:",
      retryInMs: 100,
    }),
  ];
  for (const given of others) assert.deepEqual(toV2(given), { ...given, v: 2 }, String(given.type));
});

Deno.test("v1 → v2 does not mutate the line it is given", () => {
  const lines = [
    v1("turn.started", { turnsBefore: 3, maxTurns: null }),
    v1("turn.ended", { reason: "completed", turns: 3 }),
    v1("tool.completed", completed(SUPERSEDED, "interrupted")),
  ];
  const before = structuredClone(lines);
  for (const given of lines) toV2(given);
  assert.deepEqual(lines, before);
});

Deno.test("a v1 log reads back as v2 through readLog, and the file is left as it was", async () => {
  await using dir = await tempDir();
  const path = join(dir.path, "events.jsonl");
  const text = [
    v1("turn.started", { turnsBefore: 0, maxTurns: null }, 1),
    v1("tool.completed", completed(CUT_OFF), 2),
    v1("turn.ended", { reason: "max_turns", turns: 2 }, 3),
  ].map((raw) => `${JSON.stringify(raw)}\n`).join("");
  await Deno.writeTextFile(path, text);

  const read = await readEvents(path, { upcasters: UPCASTERS });
  assert.deepEqual(read.map((e) => [e.v, e.seq, e.type, e.data]), [
    [2, 1, "turn.started", { roundsBefore: 0, maxTurns: null }],
    [2, 2, "tool.completed", completed(CUT_OFF, "not_run")],
    [2, 3, "turn.ended", { reason: "max_turns", rounds: 2 }],
  ]);
  const streamed: Envelope[] = [];
  for await (const event of readLog(path)) streamed.push(event);
  assert.deepEqual(streamed, read, "the default table is the shipped one");
  assert.equal(await Deno.readTextFile(path), text);
});

Deno.test("upcast applies the step for each version and stamps the new version", () => {
  assert.deepEqual(upcast(V0, RENAME_PROMPT, 1), {
    v: 1,
    seq: 1,
    type: "user.prompted",
    data: { text: "hi" },
  });
  assert.deepEqual(V0.data, { prompt: "hi" }, "the input is not mutated");
});

Deno.test("upcast chains one step per version up to the target", () => {
  const table: UpcasterTable = {
    ...RENAME_PROMPT,
    1: (raw) => ({ ...raw, data: renameKey(raw.data, "text", "body") }),
    2: (raw) => ({ ...raw, agent: raw.agent ?? "lead" }),
  };
  assert.deepEqual(upcast(V0, table, 3), {
    v: 3,
    seq: 1,
    type: "user.prompted",
    data: { body: "hi" },
    agent: "lead",
  });
});

Deno.test("a line already at the target version is returned as it is", () => {
  const current = { ...V0, v: CURRENT_VERSION };
  assert.equal(upcast(current), current);
  assert.equal(upcast(current, RENAME_PROMPT), current);
});

Deno.test("upcast names a missing step, a newer version and a non-integer version", () => {
  const target = CURRENT_VERSION;
  assert.equal(upcast(V0, {}), `no upcaster from version 0 (this build reads version ${target})`);
  assert.equal(
    upcast(V0, RENAME_PROMPT),
    `no upcaster from version 1 (this build reads version ${target})`,
  );
  assert.equal(upcast({ ...V0, v: target + 1 }), `version ${target + 1} is newer than ${target}`);
  assert.equal(upcast({ ...V0, v: "1" }), '"v" must be an integer, found "1"');
  assert.equal(upcast({ seq: 1 }), 'missing "v"');
});
