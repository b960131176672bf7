/**
 * Subagents (s06) end to end: a session with the task tool (settings recorded, as the CLI
 * records them) against the fake model, whose script tells the parent from each child by the
 * first user message. Children run tools, run at once, resume after a crash, and replay.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Envelope } from "../events/event_types.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import {
  type FakeAnthropic,
  type FakeRequestBody,
  message,
  startFakeAnthropic,
  text,
  toolUse,
} from "../testing/fake_anthropic.ts";
import type { FakeScriptFn } from "../testing/fake_replies.ts";
import { firstUserText, toolResultCount } from "../testing/scenarios.ts";
import { startTestSession, type TestSession } from "../testing/test_session.ts";

/**
 * A live session recorded as the CLI records one (settings and the mechanisms' files, so the
 * `task` tool is in its pool), whose `files` (`.claude/agents/*.md` among them) are written into
 * the workspace first.
 */
function startRig(
  script: FakeScriptFn,
  options: { files?: Record<string, string>; settings?: unknown } = {},
): Promise<TestSession> {
  return startTestSession(script, {
    maxAttempts: 2,
    workspaceFiles: options.files ?? {},
    recordSettings: {
      settings: options.settings ?? {},
      flags: { allowedTools: ["Task", "Write", "Bash"] },
    },
  });
}

/** The text of every tool_result of a request, in order. */
function toolResults(body: FakeRequestBody | undefined): string[] {
  return (body?.messages ?? []).flatMap(({ content }) =>
    typeof content === "string" ? [] : content.flatMap((block) =>
      block.type === "tool_result"
        ? [
          typeof block.content === "string" ? block.content : JSON.stringify(block.content),
        ]
        : []
    )
  );
}

function systemText(body: FakeRequestBody | undefined): string {
  const system = body?.system;
  if (typeof system === "string") return system;
  return (system ?? []).map((block) => String(block.text)).join("\n");
}

/** `promise`, or a failure naming `what` once `ms` have passed: a hang fails the test. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

const PARENT = "Survey the project";
const EXPLORE = "Find the JSON files";
const WORKER = "Write notes.txt and show it";
const WORKER_AGENT = "general-purpose@toolu_worker";

/** The parent starts an Explore and a general-purpose child at once; each uses tools. */
const twoChildren: FakeScriptFn = (request) => {
  const body = request.body;
  const task = firstUserText(body?.messages ?? []);
  const done = toolResultCount(body);
  if (task === PARENT) {
    if (done === 0) {
      return message([
        text("Starting two agents."),
        toolUse("toolu_explore", "task", {
          description: "find json",
          prompt: EXPLORE,
          subagent_type: "Explore",
        }),
        toolUse("toolu_worker", "task", { description: "write notes", prompt: WORKER }),
      ]);
    }
    return message(`Both done: ${toolResults(body).map((r) => r.split("\n")[0]).join(" | ")}`);
  }
  if (task === EXPLORE) {
    if (done === 0) return message([toolUse("toolu_e1", "glob", { pattern: "**/*.json" })]);
    return message("Found config.json");
  }
  if (task === WORKER) {
    if (done === 0) {
      return message([toolUse("toolu_w1", "write_file", { path: "notes.txt", content: "hi\n" })]);
    }
    if (done === 1) {
      return message([toolUse("toolu_w2", "bash", { command: "sleep 0.3; cat notes.txt" })]);
    }
    return message("Wrote notes.txt");
  }
  return message(`unexpected conversation: ${task}`);
};

function bodiesOf(fake: FakeAnthropic, task: string): FakeRequestBody[] {
  return fake.requests.flatMap((r) =>
    r.body && firstUserText(r.body.messages) === task ? [r.body] : []
  );
}

Deno.test("two task calls of one answer run their children at once; the parent gets both answers, and it replays", async () => {
  await using rig = await startRig(twoChildren, { files: { "config.json": "{}\n" } });
  const result = await rig.session.prompt(PARENT, {
    signal: new AbortController().signal,
    maxTurns: null,
  });
  assert.equal(result.reason, "completed", result.message ?? "");
  assert.equal(
    rig.session.lastText,
    "Both done: Found config.json | Wrote notes.txt",
  );
  assert.equal(await Deno.readTextFile(join(rig.workspace, "notes.txt")), "hi\n");

  // The parent's tools include task, whose description lists the types; the children's do not.
  const toolsOf = (task: string) => bodiesOf(rig.fake, task)[0]?.tools?.map((t) => t.name);
  const parentTools = toolsOf(PARENT) ?? [];
  assert.ok(parentTools.includes("task"));
  const taskTool = bodiesOf(rig.fake, PARENT)[0]?.tools?.find((t) => t.name === "task");
  assert.match(String(taskTool?.description), /- general-purpose: .*\n- Explore: /);
  assert.deepEqual(toolsOf(EXPLORE), ["read_file", "glob", "grep"]);
  assert.deepEqual(toolsOf(WORKER), parentTools.filter((name) => name !== "task"));
  assert.match(systemText(bodiesOf(rig.fake, EXPLORE)[0]), /read-only exploration subagent/);

  // Each child is an agent of the session, started by agent.spawned, with its own conversation.
  const events = rig.events();
  const spawned = events.filter((e) => e.type === "agent.spawned");
  assert.deepEqual(spawned.map((e) => e.agent), [
    "Explore@toolu_explore",
    "general-purpose@toolu_worker",
  ]);
  assert.ok(spawned[0]?.type === "agent.spawned");
  assert.deepEqual(spawned[0].data.tools, ["read_file", "glob", "grep"]);
  assert.equal(spawned[0].data.maxTurns, 30);
  const view = rig.harness.state.sessions.byId["session-1"];
  assert.equal(view?.agents["Explore@toolu_explore"]?.rounds, 2);
  assert.equal(view?.agents["general-purpose@toolu_worker"]?.rounds, 3);

  // They ran at once: the Explore child finished while the worker's bash call was running.
  const index = (agent: string, type: string) =>
    events.findIndex((e) => e.agent === agent && e.type === type);
  assert.ok(
    index("Explore@toolu_explore", "turn.ended") <
      index("general-purpose@toolu_worker", "turn.ended"),
  );
  assert.ok(
    index("general-purpose@toolu_worker", "agent.spawned") <
      index("Explore@toolu_explore", "turn.ended"),
  );

  // The parent's results, in call order, carry each answer and a usage line.
  const results = events.flatMap((e) =>
    e.type === "tool.completed" && e.agent === "lead" ? [e.data] : []
  );
  assert.deepEqual(results.map((r) => r.callId), ["toolu_explore", "toolu_worker"]);
  assert.match(
    results[0]?.content ?? "",
    /^Found config\.json\n\n\[Explore agent: 2 rounds, \d+ input/,
  );
  assert.equal(results.some((r) => r.isError), false);

  const replayed = await within(replaySession(events), 10_000, "The replay");
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
  assert.equal(replayed.matched, events.length);
});

const REVIEWER = [
  "---",
  "name: reviewer",
  "description: Reviews code for bugs",
  "tools: Read, Grep",
  "model: inherit",
  "maxTurns: 4",
  "---",
  "You are a strict code reviewer. List bugs only.",
  "",
].join("\n");

Deno.test("a .claude/agents definition is a subagent type: its prompt, tools and turn cap; SubagentStop runs when it finishes", async () => {
  const review = "Review main.ts";
  const script: FakeScriptFn = (request) => {
    const task = firstUserText(request.body?.messages ?? []);
    const done = toolResultCount(request.body);
    if (task === review) {
      if (done === 0) return message([toolUse("toolu_r1", "read_file", { path: "main.ts" })]);
      return message("No bugs found");
    }
    if (done === 0) {
      return message([
        toolUse("toolu_review", "task", {
          description: "review",
          prompt: review,
          subagent_type: "reviewer",
        }),
      ]);
    }
    return message(`Review: ${toolResults(request.body)[0]?.split("\n")[0]}`);
  };
  await using rig = await startRig(script, {
    files: {
      "main.ts": "console.log(1);\n",
      ".claude/agents/reviewer.md": REVIEWER,
      ".claude/agents/broken.md": "---\nname: broken\n---\nNo description.\n",
    },
    settings: {
      hooks: {
        SubagentStop: [{ hooks: [{ type: "command", command: "cat > /dev/null; echo stopped" }] }],
        Stop: [{ hooks: [{ type: "command", command: "cat > /dev/null" }] }],
      },
    },
  });
  assert.equal(rig.notices.length, 1);
  assert.match(rig.notices[0] ?? "", /broken\.md": its frontmatter has no description/);
  const result = await rig.session.prompt("Get the code reviewed", {
    signal: new AbortController().signal,
    maxTurns: null,
  });
  assert.equal(result.reason, "completed", result.message ?? "");
  assert.equal(rig.session.lastText, "Review: No bugs found");

  const parentTask = bodiesOf(rig.fake, "Get the code reviewed")[0]?.tools?.find((t) =>
    t.name === "task"
  );
  assert.match(
    String(parentTask?.description),
    /- reviewer: Reviews code for bugs \(Tools: Read, Grep\)/,
  );
  assert.doesNotMatch(String(parentTask?.description), /broken/);
  const child = bodiesOf(rig.fake, review)[0];
  assert.deepEqual(child?.tools?.map((t) => t.name), ["read_file", "grep"]);
  assert.match(systemText(child), /You are a strict code reviewer\. List bugs only\.$/);

  const events = rig.events();
  const spawned = events.find((e) => e.type === "agent.spawned");
  assert.ok(spawned?.type === "agent.spawned");
  assert.equal(spawned.data.maxTurns, 4);
  assert.equal(spawned.data.model, "claude-test");
  assert.match(spawned.data.path ?? "", /reviewer\.md$/);
  const ran = events.flatMap((e) =>
    e.type === "hook.ran" ? [`${e.agent} ${e.data.hookEvent}`] : []
  );
  assert.deepEqual(ran, ["reviewer@toolu_review SubagentStop", "lead Stop"]);

  const replayed = await within(replaySession(events), 10_000, "The replay");
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
});

/** Whether the log holds the worker's bash intent. */
function workerBashRequested(events: readonly Envelope[]): boolean {
  return events.some((e) =>
    e.agent === WORKER_AGENT && e.type === "tool.requested" && e.data.name === "bash"
  );
}

/**
 * Prompt the parent of {@link twoChildren} and let its process "die" while the worker's bash
 * call runs, once the Explore child has finished: the call never returns, so the first run's
 * loops stay where they are, as a killed process leaves its log. Returns the log's length then.
 */
async function crashWhileWorkerRunsBash(rig: TestSession): Promise<number> {
  const { effects } = rig.harness.deps;
  const live = effects.runCall;
  effects.runCall = (call, tools, context) =>
    call.name === "bash" ? new Promise(() => {}) : live(call, tools, context);
  void rig.session.prompt(PARENT, { signal: new AbortController().signal, maxTurns: null });
  const crashed = () =>
    workerBashRequested(rig.events()) &&
    rig.events().some((e) => e.agent === "Explore@toolu_explore" && e.type === "turn.ended");
  while (!crashed()) await new Promise((resolve) => setTimeout(resolve, 5));
  effects.runCall = live;
  return rig.events().length;
}

/** Resume the session's parent as a restarted process does, without a prompt. */
function resumeParent(rig: TestSession) {
  return rig.harness.openSession("session-1").resume("continue", undefined, {
    signal: new AbortController().signal,
    maxTurns: null,
  });
}

Deno.test("after a crash mid-subagent, resuming the parent continues the child from the log and returns its answer", async () => {
  await using rig = await startRig(twoChildren, { files: { "config.json": "{}\n" } });
  const crashedAt = await crashWhileWorkerRunsBash(rig);

  const resumed = await resumeParent(rig);
  assert.equal(resumed?.reason, "completed", resumed?.message ?? "");
  const events = rig.events();
  const after = events.slice(crashedAt);
  // The parent's task calls were not closed as interrupted; the finished Explore child did not
  // run again; the worker's open bash call was closed, not re-run, and the worker went on.
  const closed = after.flatMap((e) =>
    e.type === "tool.completed" ? [`${e.agent} ${e.data.callId} ${e.data.outcome ?? "ran"}`] : []
  );
  assert.deepEqual(closed, [
    `${WORKER_AGENT} toolu_w2 interrupted`,
    "lead toolu_explore ran",
    "lead toolu_worker ran",
  ]);
  assert.equal(after.filter((e) => e.agent === "Explore@toolu_explore").length, 0);
  assert.deepEqual(
    after.filter((e) => e.type === "session.resumed").map((e) => e.agent),
    ["lead", WORKER_AGENT],
  );
  const parentResults = after.flatMap((e) =>
    e.type === "tool.completed" && e.agent === "lead" ? [e.data.content.split("\n")[0]] : []
  );
  assert.deepEqual(parentResults, ["Found config.json", "Wrote notes.txt"]);
  assert.equal(
    events.filter((e) => e.type === "tool.requested" && e.data.callId === "toolu_w2").length,
    1,
  );

  const replayed = await within(replaySession(events), 10_000, "The replay");
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
  assert.equal(replayed.matched, events.length);
});

Deno.test("a crash log whose last events are a child's answer after its sibling's open call replays to its end", async () => {
  // The worker's bash call waits until the Explore child has asked for its last answer, and
  // that answer waits for the worker's bash intent, so the log ends: the worker's intent, the
  // Explore child's answer and turn end, then the parent's resume. Replay ends the worker's first
  // run (its next event is in the next process) just after it starts the resumed parent's run,
  // which must not be taken for one of the dead process.
  let log: () => Envelope[] = () => [];
  const { promise: exploreAsked, resolve: exploreAsks } = Promise.withResolvers<void>();
  const script: FakeScriptFn = async (request, index) => {
    const body = request.body;
    const task = firstUserText(body?.messages ?? []);
    if (task === WORKER && toolResultCount(body) === 1) await exploreAsked;
    if (task === EXPLORE && toolResultCount(body) === 1) {
      exploreAsks();
      while (!workerBashRequested(log())) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    return await twoChildren(request, index);
  };
  await using rig = await startRig(script, { files: { "config.json": "{}\n" } });
  log = rig.events;
  const crashedAt = await crashWhileWorkerRunsBash(rig);
  const last = rig.events().slice(crashedAt - 5, crashedAt).map((e) => `${e.agent} ${e.type}`);
  assert.deepEqual(last, [
    `${WORKER_AGENT} model.responded`,
    `${WORKER_AGENT} permission.decided`,
    `${WORKER_AGENT} tool.requested`,
    "Explore@toolu_explore model.responded",
    "Explore@toolu_explore turn.ended",
  ]);
  const resumed = await resumeParent(rig);
  assert.equal(resumed?.reason, "completed", resumed?.message ?? "");

  const events = rig.events();
  const replayed = await within(replaySession(events), 10_000, "The replay");
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
  assert.equal(replayed.matched, events.length);
});

Deno.test("Ctrl-C cancels every running subagent and the parent's turn", async () => {
  await using rig = await startRig(twoChildren, { files: { "config.json": "{}\n" } });
  const controller = new AbortController();
  const run = rig.session.prompt(PARENT, { signal: controller.signal, maxTurns: null });
  while (!workerBashRequested(rig.events())) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  controller.abort();
  const result = await run;
  assert.equal(result.reason, "cancelled");
  const events = rig.events();
  const ended = events.flatMap((e) =>
    e.type === "turn.ended" ? [`${e.agent} ${e.data.reason}`] : []
  );
  assert.ok(ended.includes(`${WORKER_AGENT} cancelled`), ended.join(", "));
  assert.equal(ended.at(-1), "lead cancelled");
  const workerResult = events.find((e) =>
    e.type === "tool.completed" && e.data.callId === "toolu_worker"
  );
  assert.ok(workerResult?.type === "tool.completed");
  assert.equal(workerResult.data.outcome, "cancelled");

  const replayed = await within(replaySession(events), 10_000, "The replay");
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
});

Deno.test("headless: a task call runs without asking; the child's work counts in the result but stays out of the lead's stream", async () => {
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-subagents-cli-" }));
  try {
    await Deno.writeTextFile(join(workspace, "a.json"), "{}\n");
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const task = firstUserText(request.body?.messages ?? []);
        const done = toolResultCount(request.body);
        if (task === "Find the JSON files") {
          return done === 0
            ? message([toolUse("toolu_child_glob", "glob", { pattern: "*.json" })])
            : message("Found a.json");
        }
        return done === 0
          ? message([
            toolUse("toolu_task", "task", {
              description: "find JSON",
              prompt: "Find the JSON files",
              subagent_type: "Explore",
            }),
          ])
          : message("The explorer found a.json");
      },
    });
    const cli = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--quiet",
        new URL("../cli/main.ts", import.meta.url).pathname,
        "-p",
        "survey",
        "--output-format",
        "stream-json",
        "--verbose",
        "--workspace",
        workspace,
      ],
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-test-0123456789" },
    });
    const out = await cli.output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 0, stderr);
    const lines = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) => JSON.parse(l));
    const result = lines.at(-1);
    assert.equal(result.result, "The explorer found a.json");
    assert.equal(result.permission_denials.length, 0);
    const texts = JSON.stringify(lines.filter((l) => l.type === "assistant"));
    assert.doesNotMatch(texts, /Found a\.json|toolu_child_glob/, "the child's messages stay out");
    assert.equal(fake.requests.length, 4);
    const log = (await Deno.readTextFile(join(workspace, ".rein/events.jsonl"))).trim().split("\n")
      .map((line) => JSON.parse(line));
    const responded = log.filter((e) => e.type === "model.responded");
    assert.equal(new Set(responded.map((e) => e.agent)).size, 2, "the lead and the child answered");
    const input = responded.reduce((sum, e) => sum + e.data.usage.input_tokens, 0);
    assert.equal(result.usage.input_tokens, input, "the child's tokens count in the result");
    const replay = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--quiet",
        new URL("../cli/main.ts", import.meta.url).pathname,
        "replay",
        "--verify",
        "--quiet",
        "--workspace",
        workspace,
      ],
    }).output();
    assert.equal(replay.code, 0, new TextDecoder().decode(replay.stdout));
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("a definition's permissionMode applies to its subagent; a repository's cannot bypass checks", async () => {
  const planner = "---\nname: planner\ndescription: Plans only\npermissionMode: plan\n---\nPlan.\n";
  const bold = "---\nname: bold\ndescription: Tries to skip checks\n" +
    "permissionMode: bypassPermissions\n---\nGo.\n";
  const script: FakeScriptFn = (request) => {
    const task = firstUserText(request.body?.messages ?? []);
    const done = toolResultCount(request.body);
    if (task === "plan it" || task === "skip it") {
      return done === 0
        ? message([toolUse(`toolu_${task.split(" ")[0]}_edit`, "edit_file", {
          path: "notes.txt",
          old_string: "a",
          new_string: "b",
        })])
        : message("child done");
    }
    return done === 0
      ? message([
        toolUse("toolu_t1", "task", {
          description: "plan",
          prompt: "plan it",
          subagent_type: "planner",
        }),
        toolUse("toolu_t2", "task", {
          description: "skip",
          prompt: "skip it",
          subagent_type: "bold",
        }),
      ])
      : message("parent done");
  };
  await using rig = await startRig(script, {
    files: {
      ".claude/agents/planner.md": planner,
      ".claude/agents/bold.md": bold,
      "notes.txt": "a\n",
    },
  });
  await rig.session.prompt("go", { signal: new AbortController().signal, maxTurns: null });
  const decided = rig.events().filter((e) => e.type === "permission.decided");
  const of = (callId: string) => decided.find((e) => e.data.callId === callId)?.data;
  const planned = of("toolu_plan_edit");
  assert.equal(planned?.decision, "deny");
  assert.deepEqual(planned?.source, { kind: "mode", mode: "plan" });
  const skipped = of("toolu_skip_edit");
  assert.equal(skipped?.decision, "deny", "a project definition's bypassPermissions is ignored");
  assert.equal(skipped?.source.kind, "headless");
  assert.equal(await Deno.readTextFile(join(rig.workspace, "notes.txt")), "a\n");
});
