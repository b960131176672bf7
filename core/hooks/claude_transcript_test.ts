import assert from "node:assert/strict";
import type { NewEvent } from "../../events/event_types.ts";
import { openJsonlStore } from "../../events/jsonl_store.ts";
import { respondedData, startedData } from "../../testing/event_factory.ts";
import { evolve, initialState, type State } from "../state/state.ts";
import {
  claudeAgentTranscriptPath,
  claudeTranscriptPath,
  claudeTranscriptWriter,
  hookAgentTranscriptPath,
} from "./claude_transcript.ts";

const SUB = "general-purpose@t1";

function event(type: string, data: unknown, agent = "lead"): NewEvent {
  return { type, session: "s1", agent, data } as NewEvent;
}

async function readLines(path: string): Promise<Record<string, unknown>[]> {
  return (await Deno.readTextFile(path)).trim().split("\n").map((line) => JSON.parse(line));
}

Deno.test("claudeTranscriptWriter writes the session's and each subagent's file from the log, then appends only what is new", async () => {
  const dir = await Deno.makeTempDir();
  let state: State = initialState();
  const store = await openJsonlStore(`${dir}/events.jsonl`, {
    clock: () => new Date("2026-11-29T01:02:03.000Z"),
    onEvent: (e) => state = evolve(state, e),
  });
  try {
    await store.append([
      event("session.started", startedData({ workspace: "/ws" })),
      event("user.prompted", { text: "hi" }),
    ]);
    const write = claudeTranscriptWriter(`${dir}/events.jsonl`, { version: "0.1.0" });
    const path = await write(state, "s1");
    assert.equal(path, `${dir}/transcripts/s1.jsonl`);
    assert.equal(path, claudeTranscriptPath(`${dir}/events.jsonl`, "s1"));
    const first = await readLines(path);
    assert.deepEqual(first.map((l) => l.type), ["user"]);
    assert.equal(first[0]?.timestamp, "2026-11-29T01:02:03.000Z");

    // What is already written is not written again: a mark of the same size put on it stays.
    const marked = (await Deno.readTextFile(path)).replace('"external"', '"externaX"');
    await Deno.writeTextFile(path, marked);
    await store.append([
      event("model.responded", respondedData([{ type: "text", text: "yo" }])),
      event("user.prompted", { text: "look" }, SUB),
      event("model.responded", respondedData([{ type: "text", text: "seen" }]), SUB),
    ]);
    await Promise.all([write(state, "s1"), write(state, "s1")]);
    const lines = await readLines(path);
    assert.deepEqual(lines.map((l) => [l.type, l.userType]), [
      ["user", "externaX"],
      ["assistant", "external"],
    ]);
    assert.equal(lines[1]?.parentUuid, first[0]?.uuid);
    const agentPath = claudeAgentTranscriptPath(`${dir}/events.jsonl`, "s1", SUB);
    assert.equal(agentPath, `${dir}/transcripts/s1/subagents/agent-${SUB}.jsonl`);
    assert.equal(
      hookAgentTranscriptPath({ transcriptPath: `${dir}/events.jsonl` }, "s1", SUB),
      agentPath,
    );
    const sidechain = await readLines(agentPath);
    assert.deepEqual(sidechain.map((l) => [l.type, l.isSidechain, l.agentId]), [
      ["user", true, SUB],
      ["assistant", true, SUB],
    ]);

    // More than a tail read takes at once (a large result) is read streaming, and appended.
    await store.append([event("user.prompted", { text: "y".repeat(1.5 * 2 ** 20) })]);
    await write(state, "s1");
    const grown = await readLines(path);
    assert.deepEqual(grown.map((l) => l.type), ["user", "assistant", "user"]);
    assert.equal((grown[2]?.message as { content: string }).content.length, 1.5 * 2 ** 20);
    assert.equal(grown[2]?.parentUuid, grown[1]?.uuid);

    // A new writer (a new process) writes each file whole again.
    await claudeTranscriptWriter(`${dir}/events.jsonl`)(state, "s1");
    assert.deepEqual((await readLines(path)).map((l) => l.userType), [
      "external",
      "external",
      "external",
    ]);
    // Another process's writer got further meanwhile: this one writes the file whole, once.
    await store.append([event("user.prompted", { text: "again" })]);
    await claudeTranscriptWriter(`${dir}/events.jsonl`)(state, "s1");
    await store.append([event("user.prompted", { text: "and again" })]);
    await write(state, "s1");
    const texts = (await readLines(path)).map((l) => (l.message as { content: unknown }).content);
    assert.deepEqual(texts.slice(-2), ["again", "and again"]);
    assert.equal(texts.length, 5);
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("claudeTranscriptWriter throws nothing when the log or the files cannot be used", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const e = { v: 1, seq: 1, ts: "2026-11-29T00:00:00.000Z", session: "s1", agent: "lead" };
    const state = evolve(initialState(), {
      ...e,
      type: "session.started",
      data: startedData(),
    } as never);
    // No log at that path.
    assert.equal(
      await claudeTranscriptWriter(`${dir}/none/events.jsonl`)(state, "s1"),
      `${dir}/none/transcripts/s1.jsonl`,
    );
    // The transcripts folder cannot be made: a file is in the way.
    await Deno.writeTextFile(
      `${dir}/events.jsonl`,
      JSON.stringify({ ...e, type: "session.started", data: startedData() }) + "\n",
    );
    await Deno.writeTextFile(`${dir}/transcripts`, "");
    assert.equal(
      await claudeTranscriptWriter(`${dir}/events.jsonl`)(state, "s1"),
      `${dir}/transcripts/s1.jsonl`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
