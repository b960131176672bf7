/**
 * `rein replay` reads each session as it replays it: sessions that ran at the same time (one
 * resumed after another began) are each read again from before their start, and a damaged
 * payload after the point where a session diverges is still reported as damage.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../testing/events.ts";
import { generateLog } from "../testing/generate_log.ts";
import { buildSnapshot } from "../core/snapshots/mod.ts";
import { runCli } from "./_cli.ts";

const golden = async (name: string) =>
  (await Deno.readTextFile(new URL(`./golden/${name}`, import.meta.url))).trim().split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown> & { data: unknown });

/** The events as a log: seq renumbered from 1 in the order given. */
const logText = (events: readonly Record<string, unknown>[]) =>
  events.map((event, i) => `${JSON.stringify({ ...event, seq: i + 1 })}\n`).join("");

/** Replay may read the log and the environment, nothing else. */
const REPLAY_ONLY = ["--allow-read", "--allow-env"];

Deno.test("replay --verify replays sessions whose events interleave, each from before its start", async () => {
  await using dir = await tempDir();
  const log = join(dir.path, "events.jsonl");
  const one = await golden("six_tools.jsonl");
  const two = await golden("cancel.jsonl");
  const three = await golden("faults.jsonl");
  // One's second half comes after all of two, and three runs after both.
  await Deno.writeTextFile(log, logText([...one.slice(0, 14), ...two, ...one.slice(14), ...three]));
  const result = await runCli(["replay", log, "--verify"], { permissions: REPLAY_ONLY });
  assert.equal(result.code, 0, result.stderr);
  for (const [events, name] of [[one, "one"], [two, "two"], [three, "three"]] as const) {
    const id = events[0]!.session as string;
    assert.match(
      result.stdout,
      new RegExp(`✓ session ${id}: ${events.length} events replayed, all match the log`),
      name,
    );
  }
});

Deno.test("a damaged payload after the point where a session diverges is reported as damage, with its line", async () => {
  await using dir = await tempDir();
  const log = join(dir.path, "events.jsonl");
  const events = await golden("six_tools.jsonl");
  // The first answer says something else (the next request differs: a divergence at seq 8),
  // and a later answer lost its payload.
  const changed = structuredClone(events);
  const first = changed[4]!.data as { content: { type: string; text?: string }[] };
  first.content = [{ type: "text", text: "something else" }, ...first.content.slice(1)];
  changed[16]!.data = {};
  await Deno.writeTextFile(log, logText(changed));
  const result = await runCli(["replay", log, "--verify"], { permissions: REPLAY_ONLY });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /line 17 of ".*events\.jsonl": malformed model\.responded payload/);
  assert.match(result.stderr, /rein log check/);

  // Without the damage, the divergence itself is what --verify reports.
  changed[16] = events[16]!;
  await Deno.writeTextFile(log, logText(changed));
  const diverged = await runCli(["replay", log, "--verify"], { permissions: REPLAY_ONLY });
  assert.equal(diverged.code, 1);
  assert.match(diverged.stdout, /diverges at seq \d+/);
});

Deno.test("replay --session starts near its session from the catalog snapshot's places, not from the log's start", async () => {
  await using dir = await tempDir();
  const log = join(dir.path, "events.jsonl");
  // A long log of other sessions (several read chunks), then the session replayed.
  await generateLog(log, { events: 12_000, workspace: dir.path });
  const before = (await Deno.readTextFile(log)).trim().split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const session = await golden("six_tools.jsonl");
  await Deno.writeTextFile(log, logText([...before, ...session]));
  const sessions = [...new Set([...before, ...session].map((e) => e.session as string))];
  await buildSnapshot(log, { sessions });
  // A line far before the session is damaged after the snapshot was taken (its bytes, not its
  // length: the places after it still hold): it cannot be the session's, and a replay of the
  // session alone does not read that far back.
  const lines = (await Deno.readTextFile(log)).split("\n");
  lines[100] = `{${"#".repeat(new TextEncoder().encode(lines[100]).length - 1)}`;
  await Deno.writeTextFile(log, lines.join("\n"));
  const id = session[0]!.session as string;
  const alone = await runCli(["replay", log, "--session", id, "--verify"], {
    permissions: REPLAY_ONLY,
  });
  assert.equal(alone.code, 0, alone.stderr);
  assert.match(alone.stdout, new RegExp(`✓ session ${id}: ${session.length} events replayed`));
  // Every session: the damaged line is read, and reported before any output.
  const all = await runCli(["replay", log, "--verify"], { permissions: REPLAY_ONLY });
  assert.equal(all.code, 1);
  assert.match(all.stderr, /line 101 of ".*events\.jsonl"/);
  assert.equal(all.stdout, "");
});
