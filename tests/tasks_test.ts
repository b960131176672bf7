/**
 * The task graph end to end: headless rein runs against the fake model create, claim, complete
 * and change tasks, with refusals worded for the model; the graph is shared by every session and
 * process of the workspace (`rein tasks`, a second session, the catalog snapshot); two processes
 * racing for 100 tasks claim each exactly once; a process killed during a claim resumes without
 * losing or doubling a claim; every session replays with --verify.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import {
  buildSnapshot,
  foldCatalog,
  latestCatalog,
  snapshotDir,
  writeCatalogSnapshot,
} from "../core/snapshots/mod.ts";
import { catalogSliceOf, emptyCatalog, evolveCatalog } from "../core/state/catalog.ts";
import { reinCatalogProjections } from "../core/harness.ts";
import { type TaskGraph, taskGraphProjection } from "../core/tasks/tasks_projection.ts";
import { readLog } from "../events/read_log.ts";
import {
  type FakeReply,
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { type CliResult, readLogLines, runCli, tempWorkspace } from "./_cli.ts";
import { CliProcess } from "./_cli_process.ts";

const KEY = "sk-ant-tasks-test-0123456789";

/** The model's n-th answer of the turn (counting its earlier answers in the request). */
function answers(steps: readonly FakeReply[]): FakeScriptFn {
  return (request) => {
    const n = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length;
    return steps[n] ?? message("Nothing more.");
  };
}

/** Answers in order, one per request, whatever the conversation before (a resumed session). */
function inOrder(steps: readonly FakeReply[]): FakeScriptFn {
  return (_request, index) => steps[index] ?? message("Nothing more.");
}

/** One answer calling `name` once per input, ids `<prefix>_<i>`. */
function calls(prefix: string, name: string, inputs: readonly Record<string, unknown>[]) {
  return message(inputs.map((input, i) => toolUse(`${prefix}_${i + 1}`, name, input)));
}

/** A headless `rein -p` run in `workspace` against a fake server answering `steps`. */
async function headless(
  workspace: string,
  steps: readonly FakeReply[] | FakeScriptFn,
  args: readonly string[] = ["-p", "work on the tasks"],
): Promise<CliResult> {
  await using fake = await startFakeAnthropic({
    script: typeof steps === "function" ? steps : answers(steps),
  });
  const result = await runCli([...args, "--workspace", workspace], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 0, result.stderr);
  return result;
}

async function logOf(workspace: string): Promise<Envelope[]> {
  return await readLogLines(join(workspace, ".rein", "events.jsonl")) as unknown as Envelope[];
}

/** The content of each call's result, by call id. */
function results(events: readonly Envelope[]): Map<string, string> {
  return new Map(
    events.flatMap((e) => e.type === "tool.completed" ? [[e.data.callId, e.data.content]] : []),
  );
}

async function replayVerifies(workspace: string): Promise<void> {
  const replay = await runCli([
    "replay",
    join(workspace, ".rein", "events.jsonl"),
    "--verify",
    "--quiet",
  ]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  assert.doesNotMatch(replay.stdout, /✗/);
}

Deno.test("the task tools build a graph, refuse what its rules forbid saying why, and replay", async () => {
  await using ws = await tempWorkspace();
  const first = await headless(ws.path, [
    calls("c", "create_task", [
      { subject: "Set up the schema", description: "Tables for users" },
      { subject: "Write the API", blockedBy: [1] },
      { subject: "Write the UI", blockedBy: [1, 9] },
    ]),
    message([
      toolUse("u_1", "update_task", { task_id: 1, addBlockedBy: [2] }),
      toolUse("k_2", "claim_task", { task_id: 2 }),
      toolUse("k_1", "claim_task", { task_id: 1 }),
      toolUse("d_1", "complete_task", { task_id: 1 }),
      toolUse("l_1", "list_tasks", {}),
    ]),
    message("The schema is done."),
  ]);
  assert.equal(first.stdout.trim(), "The schema is done.");
  const events = await logOf(ws.path);
  const said = results(events);
  assert.equal(said.get("c_1"), "Created task 1: Set up the schema. It is ready to claim");
  assert.equal(
    said.get("c_2"),
    "Created task 2: Write the API (waits for #1). It is blocked by #1 (pending)",
  );
  assert.equal(
    said.get("c_3"),
    "Cannot create the task: blockedBy names #9, which does not exist (tasks are 1–2)",
  );
  assert.equal(
    said.get("u_1"),
    "Cannot update task 1: waiting for #2 would make a cycle, since #2 already waits for #1 " +
      "(#1 waits for #2 waits for #1)",
  );
  assert.equal(
    said.get("k_2"),
    "Cannot claim task 2: it is blocked by #1 (pending); it can be claimed once that task is " +
      "completed",
  );
  assert.match(said.get("k_1") ?? "", /^Claimed task 1: Set up the schema\. It is yours/);
  assert.equal(
    said.get("d_1"),
    "Completed task 1: Set up the schema. Now ready to claim: #2 (Write the API)",
  );
  assert.match(said.get("l_1") ?? "", /^2 tasks \(1 completed, 1 pending\):\n/);
  assert.deepEqual(
    events.filter((e) => e.type.startsWith("task.")).map((e) => [e.type, e.data]),
    [
      ["task.created", {
        id: 1,
        subject: "Set up the schema",
        description: "Tables for users",
        blockedBy: [],
      }],
      ["task.created", { id: 2, subject: "Write the API", description: "", blockedBy: [1] }],
      ["task.claimed", { id: 1 }],
      ["task.completed", { id: 1 }],
    ],
  );
  const refused = events.filter((e) => e.type === "tool.completed" && e.data.isError);
  assert.deepEqual(refused.map((e) => e.type === "tool.completed" && e.data.callId), [
    "c_3",
    "u_1",
    "k_2",
  ]);

  // A second session (another process) claims task 2; the first may not complete it.
  await headless(ws.path, [
    message([toolUse("k2", "claim_task", { task_id: 2 })]),
    message("Mine now."),
  ]);
  const [one, two] = (await logOf(ws.path)).flatMap((e) =>
    e.type === "session.started" ? [e.session] : []
  );
  assert.ok(one && two);
  await headless(
    ws.path,
    inOrder([
      message([toolUse("d2", "complete_task", { task_id: 2 })]),
      message("Not mine."),
    ]),
    ["--resume", one, "-p", "finish task 2"],
  );
  assert.equal(
    results(await logOf(ws.path)).get("d2"),
    `Cannot complete task 2: it is owned by agent "lead" of session ${
      two.slice(0, 8)
    }, and only its owner can complete it`,
  );

  const tree = await runCli(["tasks", "--workspace", ws.path]);
  assert.equal(tree.code, 0, tree.stderr);
  assert.equal(
    tree.stdout,
    [
      "2 tasks: 1 completed, 1 in progress, 0 pending (0 ready)",
      `☒ #1 Set up the schema — completed by lead@${one.slice(0, 8)}`,
      `└─ ◐ #2 Write the API — claimed by lead@${two.slice(0, 8)}`,
      "",
    ].join("\n"),
  );
  const state = await runCli(["state", "--workspace", ws.path]);
  assert.equal(state.code, 0, state.stderr);
  assert.ok(
    state.stdout.endsWith(
      `\ntasks\n${tree.stdout.split("\n").slice(0, -1).map((l) => `  ${l}`).join("\n")}\n`,
    ),
    state.stdout,
  );
  const json = await runCli(["tasks", "--json", "--workspace", ws.path]);
  assert.deepEqual(
    JSON.parse(json.stdout).map((t: { id: number; status: string }) => [t.id, t.status]),
    [[1, "completed"], [2, "in_progress"]],
  );
  const before = await runCli(["tasks", "--at", "1", "--workspace", ws.path]);
  assert.equal(before.stdout, `No tasks in ${join(ws.path, ".rein", "events.jsonl")} at seq 1\n`);
  await replayVerifies(ws.path);
});

/** A project settings file with `hooks`. */
async function writeHooks(workspace: string, hooks: unknown): Promise<void> {
  await Deno.mkdir(join(workspace, ".claude"), { recursive: true });
  await Deno.writeTextFile(
    join(workspace, ".claude", "settings.json"),
    JSON.stringify({ hooks }, null, 2),
  );
}

Deno.test("TaskCreated and TaskCompleted hooks get Claude Code's fields and exit 2 refuses, telling the model why", async () => {
  await using ws = await tempWorkspace();
  const saveInput = (name: string) => `cat > "$CLAUDE_PROJECT_DIR/${name}"`;
  await writeHooks(ws.path, {
    TaskCreated: [{
      hooks: [{
        type: "command",
        command: `input=$(cat); case "$input" in *'"task_subject":"T-'*) exit 0;; esac; ` +
          `echo "Subjects start with a ticket id, like T-12" >&2; exit 2`,
      }],
    }],
    TaskCompleted: [{ hooks: [{ type: "command", command: saveInput("completed.json") }] }],
    PreToolUse: [{
      matcher: "TaskUpdate",
      hooks: [{ type: "command", command: saveInput("pre.json") }],
    }],
  });
  await headless(ws.path, [
    calls("c", "create_task", [{ subject: "Fix the parser" }, {
      subject: "T-12 Fix the parser",
      description: "It drops the last line",
    }]),
    message([toolUse("k", "claim_task", { task_id: 1 })]),
    message([toolUse("d", "complete_task", { task_id: 1 })]),
    message("Fixed."),
  ], ["--trust", "-p", "work on the tasks"]);
  const events = await logOf(ws.path);
  const said = results(events);
  assert.equal(
    said.get("c_1"),
    "Task not created: a TaskCreated hook blocked it: Subjects start with a ticket id, like T-12",
  );
  assert.equal(said.get("c_2"), "Created task 1: T-12 Fix the parser. It is ready to claim");
  const session = events[0]!.session;
  const completed = JSON.parse(await Deno.readTextFile(join(ws.path, "completed.json")));
  assert.deepEqual(
    {
      hook_event_name: completed.hook_event_name,
      session_id: completed.session_id,
      task_id: completed.task_id,
      task_subject: completed.task_subject,
      task_description: completed.task_description,
    },
    {
      hook_event_name: "TaskCompleted",
      session_id: session,
      task_id: "1",
      task_subject: "T-12 Fix the parser",
      task_description: "It drops the last line",
    },
  );
  // The PreToolUse hook for TaskUpdate saw the claim, and last the completion, as Claude Code's.
  const pre = JSON.parse(await Deno.readTextFile(join(ws.path, "pre.json")));
  assert.deepEqual([pre.tool_name, pre.tool_input], [
    "TaskUpdate",
    { taskId: 1, status: "completed" },
  ]);
  const hookRuns = events.filter((e) => e.type === "hook.ran").map((e) =>
    e.type === "hook.ran" && [e.data.hookEvent, e.data.callId, e.data.exitCode]
  );
  assert.deepEqual(hookRuns, [
    ["TaskCreated", "c_1", 2],
    ["TaskCreated", "c_2", 0],
    ["PreToolUse", "k", 0],
    ["PreToolUse", "d", 0],
    ["TaskCompleted", "d", 0],
  ]);
  await replayVerifies(ws.path);
});

Deno.test("the catalog snapshot carries the task graph, and later processes start from it", async () => {
  await using ws = await tempWorkspace();
  const log = join(ws.path, ".rein", "events.jsonl");
  await headless(ws.path, [
    calls("c", "create_task", [{ subject: "One" }, { subject: "Two", blockedBy: [1] }]),
    message([toolUse("k", "claim_task", { task_id: 1 })]),
    message("Started."),
  ]);
  const slices = reinCatalogProjections();
  const built = await buildSnapshot(log, { catalogProjections: slices });
  const graph = (catalog: Parameters<typeof catalogSliceOf>[0]): TaskGraph =>
    catalogSliceOf(catalog, taskGraphProjection);
  await headless(
    ws.path,
    inOrder([
      message([
        toolUse("d", "complete_task", { task_id: 1 }),
        toolUse("c3", "create_task", { subject: "Three", blockedBy: [2] }),
      ]),
      message("Done."),
    ]),
    ["--continue", "-p", "finish one"],
  );
  // Only the snapshot taken between the runs is kept (the second run took one as it closed).
  for await (const entry of Deno.readDir(snapshotDir(log))) {
    const seq = Number(/^catalog-(\d+)\.json$/.exec(entry.name)?.[1] ?? NaN);
    if (seq > built.seq) await Deno.remove(join(snapshotDir(log), entry.name));
  }
  const snapshot = await latestCatalog(log, Infinity, slices);
  assert.equal(snapshot?.point.seq, built.seq, "the snapshot between the runs does not hold");
  assert.deepEqual(graph(snapshot.catalog).tasks.map((t) => [t.id, t.status]), [
    [1, "in_progress"],
    [2, "pending"],
  ]);
  // The snapshot and the events after it fold to the graph of the whole log.
  const whole = emptyCatalog(slices);
  for await (const event of readLog(log)) evolveCatalog(whole, event, slices);
  const resumed = await foldCatalog(log, { catalogProjections: slices });
  assert.equal(resumed.snapshot?.point.seq, snapshot.point.seq);
  assert.deepEqual(graph(resumed.catalog), graph(whole));
  assert.deepEqual(graph(whole).tasks.map((t) => [t.id, t.status]), [
    [1, "completed"],
    [2, "pending"],
    [3, "pending"],
  ]);

  // A snapshot is trusted as it is: a forged subject shows that a new process reads the graph
  // from it rather than from the log's start.
  const forged = structuredClone(resumed.catalog);
  graph(forged).tasks[1]!.subject = "Two (from the snapshot)";
  const at = { seq: lastSeqOf(await logOf(ws.path)), offset: (await Deno.stat(log)).size };
  assert.ok(await writeCatalogSnapshot(log, { catalog: forged, ...at }, new Date()));
  const tree = await runCli(["tasks", log]);
  assert.match(tree.stdout, /#2 Two \(from the snapshot\)/);
  const listed = await headless(ws.path, [
    message([toolUse("l", "list_tasks", {})]),
    message("Listed."),
  ]);
  assert.equal(listed.stdout.trim(), "Listed.");
  assert.match(
    results(await logOf(ws.path)).get("l") ?? "",
    /#2 \[pending\] Two \(from the snapshot\)/,
  );
});

function lastSeqOf(events: readonly Envelope[]): number {
  return events.at(-1)?.seq ?? 0;
}

const RACED = 100;

Deno.test("two processes racing to claim 100 tasks claim each exactly once, by log order", async () => {
  await using ws = await tempWorkspace();
  const ids = Array.from({ length: RACED }, (_, i) => i + 1);
  await headless(ws.path, [
    calls("c", "create_task", ids.map((id) => ({ subject: `Task ${id}` }))),
    message("Created."),
  ]);
  // Both start claiming once both have asked for their first answer, in the same order.
  let arrived = 0;
  let bothHere: () => void = () => {};
  const barrier = new Promise<void>((resolve) => bothHere = resolve);
  const racer: FakeScriptFn = async (request) => {
    const n = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length;
    if (n > 0) return message("Claimed what I could.");
    if (++arrived === 2) bothHere();
    await barrier;
    return calls("k", "claim_task", ids.map((id) => ({ task_id: id })));
  };
  await Promise.all([headless(ws.path, racer), headless(ws.path, racer)]);

  const events = await logOf(ws.path);
  const sessions = events.flatMap((e) => e.type === "session.started" ? [e.session] : []);
  assert.equal(sessions.length, 3);
  const racers = sessions.slice(1);
  const claims = events.filter((e) => e.type === "task.claimed");
  assert.deepEqual(
    claims.map((e) => e.type === "task.claimed" && e.data.id).sort((a, b) => Number(a) - Number(b)),
    ids,
    "every task claimed exactly once",
  );
  const winner = new Map(claims.map((e) => [e.type === "task.claimed" && e.data.id, e.session]));
  for (const session of racers) {
    const other = racers.find((s) => s !== session)!;
    const said = events.filter((e) => e.type === "tool.completed" && e.session === session);
    assert.equal(said.length, RACED);
    for (const [i, event] of said.entries()) {
      if (event.type !== "tool.completed") continue;
      const id = i + 1;
      if (winner.get(id) === session) {
        assert.equal(event.data.isError, false);
        assert.match(event.data.content, new RegExp(`^Claimed task ${id}: Task ${id}\\.`));
      } else {
        assert.equal(
          event.data.content,
          `Cannot claim task ${id}: it is already claimed by agent "lead" of session ${
            other.slice(0, 8)
          }`,
        );
      }
    }
  }
  // Each claim's result is in the batch of its task.claimed: nothing else was appended between.
  for (const claim of claims) {
    const next = events[events.indexOf(claim) + 1];
    assert.equal(next?.type, "tool.completed");
    assert.equal(next.session, claim.session);
  }
  const wins = racers.map((s) => claims.filter((e) => e.session === s).length);
  assert.equal(wins[0]! + wins[1]!, RACED);
  await replayVerifies(ws.path);
});

const CLAIMS = 30;

Deno.test("a kill -9 during a claim loses no acknowledged claim and doubles none after the resume", async () => {
  await using ws = await tempWorkspace();
  const log = join(ws.path, ".rein", "events.jsonl");
  const ids = Array.from({ length: CLAIMS }, (_, i) => i + 1);
  await headless(ws.path, [
    calls("c", "create_task", ids.map((id) => ({ subject: `Task ${id}` }))),
    message("Created."),
  ]);
  // Claims 1…30 in one answer; after the resume, the model claims whatever is still pending.
  const script: FakeScriptFn = (request) => {
    const messages = request.body?.messages ?? [];
    const n = messages.filter((m) => m.role === "assistant").length;
    if (n === 0) return calls("k", "claim_task", ids.map((id) => ({ task_id: id })));
    const resumed = JSON.stringify(messages).includes("Interrupted: outcome unknown");
    if (n === 1 && resumed) {
      return calls("again", "claim_task", ids.map((id) => ({ task_id: id })));
    }
    return message("All claimed.");
  };
  await using fake = await startFakeAnthropic({ script });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  await using agent = new CliProcess(["-p", "claim them", "--workspace", ws.path], env);

  // The test holds the log's lock and lets go of it only to take it straight back, so the agent,
  // waiting for it, appends one batch per step however loaded the machine is (the pause is taken
  // holding the lock); once a claim's intent is the last line, the agent waits for the lock to
  // record the claim, and is killed there.
  let killedIn: string | undefined;
  {
    using file = await Deno.open(log, { read: true, write: true });
    await file.lock(true);
    const deadline = Date.now() + 60_000;
    while (killedIn === undefined) {
      assert.ok(Date.now() < deadline, "no claim was caught between its intent and its result");
      if (!agent.running) assert.fail(`The agent ended first: ${(await agent.output).stderr}`);
      const { open, claimed } = await claimsIn(log);
      // Past the first third of the claims, so that some were acknowledged before the kill.
      if (open !== undefined && claimed >= CLAIMS / 3) {
        assert.equal((await agent.kill()).signal, "SIGKILL");
        killedIn = open;
      } else {
        await new Promise((resolve) => setTimeout(resolve, 2));
        await file.unlock();
        await file.lock(true);
      }
    }
    await file.unlock();
  }
  const atKill = (await Deno.readTextFile(log)).split("\n").filter(Boolean);
  const before = atKill.map((line) => JSON.parse(line) as Envelope);
  const acknowledged = before.filter((e) => e.type === "task.claimed");
  assert.ok(acknowledged.length >= CLAIMS / 3);
  assert.ok(!acknowledged.some((e) => e.type === "task.claimed" && `k_${e.data.id}` === killedIn));

  const resumed = await runCli(["--continue", "-p", "--workspace", ws.path], { env });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(resumed.stdout.trim(), "All claimed.");
  const after = (await Deno.readTextFile(log)).split("\n").filter(Boolean);
  assert.deepEqual(after.slice(0, atKill.length), atKill, "the resume changed the logged past");
  const events = after.map((line) => JSON.parse(line) as Envelope);
  const claims = events.filter((e) => e.type === "task.claimed");
  assert.deepEqual(
    claims.map((e) => e.type === "task.claimed" && e.data.id).sort((a, b) => Number(a) - Number(b)),
    ids,
    "every task claimed exactly once",
  );
  const interrupted = events.find((e) => e.type === "tool.completed" && e.data.callId === killedIn);
  assert.equal(interrupted?.type === "tool.completed" && interrupted.data.outcome, "interrupted");
  // The claims acknowledged before the kill stand; the second round is told they are its own.
  const again = results(events);
  for (const claim of acknowledged) {
    if (claim.type !== "task.claimed") continue;
    assert.equal(
      again.get(`again_${claim.data.id}`),
      `Cannot claim task ${claim.data.id}: you already own it (you claimed it before); complete ` +
        "it when it is done",
    );
  }
  await replayVerifies(ws.path);
});

/**
 * How many claims the log holds, and the call id of the claim whose intent is its last complete
 * line (its result not yet recorded), if there is one.
 */
async function claimsIn(log: string): Promise<{ open?: string; claimed: number }> {
  const events = (await Deno.readTextFile(log)).split("\n").slice(0, -1)
    .map((line) => JSON.parse(line) as Envelope);
  const claimed = events.filter((e) => e.type === "task.claimed").length;
  const last = events.at(-1);
  return last?.type === "tool.requested" && last.data.name === "claim_task"
    ? { open: last.data.callId, claimed }
    : { claimed };
}
