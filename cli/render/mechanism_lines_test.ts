import assert from "node:assert/strict";
import type { Envelope } from "../../events/event_types.ts";
import { reinMechanisms } from "../../core/harness.ts";
import { eventFactory } from "../../testing/event_factory.ts";
import { tallyEverywhere as tallyMechanism } from "../../testing/tally/mod.ts";
import { Renderer } from "./render.ts";
import { createStyles } from "./style.ts";

/** A renderer writing to a string, in colour or not, asking `mechanisms` when given. */
function renderer(colour: boolean, options: ConstructorParameters<typeof Renderer>[3] = {}) {
  let output = "";
  const render = new Renderer(
    { write: (text) => output += text },
    createStyles(colour),
    () => undefined,
    options,
  );
  return { render, output: () => output };
}

/** One event of each kind a mechanism renders (or keeps quiet about), in an order a REPL may see. */
function mechanismEvents(): Envelope[] {
  const e = eventFactory();
  const hook = {
    hookEvent: "PreToolUse",
    matcher: "Bash",
    command: "check.sh",
    stdout: "",
    stderr: "",
    durationMs: 4,
  };
  const firing = {
    id: "c1",
    minute: "2026-11-22T10:01:00.000Z",
    firedAt: "2026-11-22T10:03:00.000Z",
    prompt: "check",
  };
  const finished = { id: "b1", durationMs: 2100, outputBytes: 3, tail: "ok" };
  return [
    e("todo.updated", {
      todos: [
        { content: "Read", activeForm: "Reading", status: "completed" },
        { content: "Fix", activeForm: "Fixing", status: "in_progress" },
        { content: "Test", activeForm: "Testing", status: "pending" },
      ],
    }),
    e("hook.started", { hookEvent: "PreToolUse", callId: "t1", commands: ["check.sh"] }),
    e("hook.ran", { ...hook, exitCode: 0, ending: "exited", decision: "allow" }),
    e("hook.ran", { ...hook, exitCode: 2, ending: "exited", decision: "block: no" }),
    e("permission.mode_changed", { mode: "acceptEdits" }),
    e("cron.fired", { ...firing, late: false, missed: 0 }),
    e("cron.fired", { ...firing, late: true, missed: 3 }),
    e("cron.delivered", { id: "c1", minute: firing.minute }),
    e("job.started", {
      id: "b1",
      callId: "t2",
      command: "npm test",
      pid: 42,
      logPath: ".rein/jobs/b1.log",
      timeoutMs: 1000,
    }),
    e("job.finished", { ...finished, ending: "exited", exitCode: 0 }),
    e("job.finished", { ...finished, ending: "timed_out", exitCode: null, signal: "SIGTERM" }),
    e("job.finished", { ...finished, ending: "stopped", exitCode: 1 }),
    e("job.lost", { id: "b2", pid: 43, logPath: ".rein/jobs/b2.log" }),
    e("compaction.started", { trigger: "auto", cutIndex: 4, cutSeq: 9, tokensBefore: 180000 }),
    e("compaction.completed", {
      trigger: "auto",
      cutIndex: 4,
      cutSeq: 9,
      summary: "s",
      tokensBefore: 180000,
      tokensAfter: 12345,
    }),
    e("compaction.failed", { trigger: "manual", message: "The summary call failed" }),
    e("context.spilled", {
      results: [
        { callId: "t3", path: ".rein/out/t3.txt", chars: 123456, preview: "p" },
        { callId: "t4", path: ".rein/out/t4.txt", chars: 70000, preview: "p" },
      ],
    }),
    e("context.snipped", {
      from: 2,
      to: 8,
      fromSeq: 3,
      toSeq: 20,
      marker: "[cut]",
      tokensFreed: 900,
    }),
    e("memory.noted", { text: "n", path: "MEMORY.md" }),
    e("task.created", { id: 1, subject: "s", description: "d", blockedBy: [] }),
  ] as Envelope[];
}

Deno.test("the mechanisms render their own events in colour, each as its own line", () => {
  const { render, output } = renderer(true);
  for (const event of mechanismEvents()) render.event(event);
  assert.equal(
    output(),
    '  \u001b[2m⎿\u001b[22m  \u001b[2m☒ Read\u001b[22m\n     \u001b[1m◐ Fixing\u001b[22m\n     ☐ Test\n\u001b[33mPreToolUse hook "check.sh": block: no\u001b[39m\n\u001b[2m— permission mode: acceptEdits\u001b[22m\n\u001b[2m— cron job c1 fired for 2026-11-22T10:01:00.000Z\u001b[22m\n\u001b[2m— cron job c1 fired for 2026-11-22T10:01:00.000Z, late (3 earlier times missed)\u001b[22m\n\u001b[2m⏺ Job b1 ended: exit code 0 · 2.1s\u001b[22m\n\u001b[33m⏺ Job b1 ended: timed out, killed by SIGTERM · 2.1s\u001b[39m\n\u001b[33m⏺ Job b1 ended: stopped · 2.1s\u001b[39m\n\u001b[33m⏺ Job b2 lost: outcome unknown (its rein process ended; pid 43, log .rein/jobs/b2.log)\u001b[39m\n\u001b[2m✻ Compacting the conversation (the context is nearly full)…\u001b[22m\n\u001b[2m✻ Compacted: about 180,000 → 12,345 tokens\u001b[22m\n\u001b[33mCompaction failed: The summary call failed\u001b[39m\n\u001b[2m— 123,456 characters of output kept in .rein/out/t3.txt\u001b[22m\n\u001b[2m— 70,000 characters of output kept in .rein/out/t4.txt\u001b[22m\n\u001b[2m— 6 old messages cut from the context\u001b[22m\n',
  );
});

Deno.test("an embedder's mechanism renders its own event, and rein's mechanisms theirs beside it", () => {
  const e = eventFactory();
  const mechanisms = [...reinMechanisms({ workspace: "/" }), tallyMechanism];
  const { render, output } = renderer(false, { mechanisms });
  render.event(e("tally.added", { by: 2, total: 5 }));
  render.event(e("permission.mode_changed", { mode: "plan" }));
  assert.equal(output(), "— tally +2, now 5\n— permission mode: plan\n");
});

Deno.test("a mechanism's event renders nothing when no mechanism given renders it", () => {
  const e = eventFactory();
  const { render, output } = renderer(false, { mechanisms: [tallyMechanism] });
  render.event(e("permission.mode_changed", { mode: "plan" }));
  render.event(e("tally.added", { by: 1, total: 1 }));
  assert.equal(output(), "— tally +1, now 1\n");
});
