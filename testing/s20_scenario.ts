/**
 * The whole harness at once (issue 25, s20): one scripted `rein -p` session against the fake
 * Anthropic server that uses tools, permission rules and a mode answering a question, a hook,
 * todos, a skill, memory (CLAUDE.md), MCP tools from a real server (server-everything over
 * stdio), a subagent, the task graph, a background job, cron tools, a recovered model error (a
 * scripted 529), a compaction (a small window) and a teammate process that claims a task by
 * itself, gets its own cron's firing (time from REIN_CLOCK_FILE), mails the lead and is shut
 * down. Run it with
 * `deno run -A testing/s20_scenario.ts [DIR]`; it prints where the log is and how to replay it.
 *
 * @module
 */

import { lastMessageText } from "./scenarios.ts";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type FakeReply,
  type FakeScriptFn,
  message,
  overloaded,
  type RecordedRequest,
  startFakeAnthropic,
  summaryRule,
  text,
  toolUse,
} from "./fake_anthropic.ts";
import { firstUserText, toolResultCount } from "./scenarios.ts";

/** Absolute path of cli/main.ts. */
const CLI = fileURLToPath(new URL("../cli/main.ts", import.meta.url));

/** The MCP server the run starts over stdio (as tests/mcp_test.ts does). */
export const EVERYTHING = "npm:@modelcontextprotocol/server-everything@2026.8.31";

/** The prompt the lead is given. */
export const S20_PROMPT = "Do everything at once: plan, use the tools, delegate, wait, compact.";

/** The marker at the start of the subagent's task, which tells its requests from the lead's. */
const SUBAGENT_TASK = "SUBAGENT: count the markdown files in the workspace";

/** What the final answer of the run says. */
export const S20_ANSWER = "Everything at once: done.";

/**
 * The mechanisms the run uses and the event types each leaves in the log (every one of them
 * appears at least once in a run of {@link runS20Scenario}).
 */
export const S20_MECHANISMS: Readonly<Record<string, readonly string[]>> = {
  "tools": ["tool.requested", "tool.completed"],
  "permissions (rules and mode)": ["permission.decided"],
  "hooks": ["hook.started", "hook.ran"],
  "todos": ["todo.updated"],
  // Memory and skills are files read at the start, recorded in `session.started` (`files`).
  "memory (CLAUDE.md)": ["session.started"],
  "skills": ["session.started", "tool.completed"],
  "subagent": ["agent.spawned"],
  "task graph": ["task.created", "task.claimed", "task.completed"],
  "background job": ["job.started", "job.finished"],
  "cron (a firing on REIN_CLOCK_FILE's time)": ["cron.scheduled", "cron.read", "cron.fired"],
  "recovered model error": ["model.failed"],
  "compaction": ["compaction.started", "compaction.completed", "context.spilled"],
  "MCP (server-everything over stdio)": ["mcp.configured", "mcp.observed"],
  "teammate, mail and shutdown": [
    "agent.spawned",
    "agent.started",
    "mail.sent",
    "protocol.requested",
    "protocol.answered",
    "agent.stopped",
  ],
  "auto-claim": ["task.claimed", "arrival.injected"],
};

/** Where a run of the scenario left things, and what `rein -p` printed. */
export interface S20Result {
  /** The run's directory: `work/` (the workspace) and `home/` (its own HOME). */
  readonly dir: string;
  readonly workspace: string;
  readonly home: string;
  /** The session's JSONL log. */
  readonly log: string;
  /** The environment to run `rein` with on this log (its HOME signed the snapshots). */
  readonly env: Record<string, string>;
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Requests the fake server answered. */
  readonly requests: number;
}

const SKILL = "---\ndescription: Greets people by name\nargument-hint: [name]\n---\n" +
  "Say hello to $ARGUMENTS, then carry on.\n";

const MEMORY = '# Project memory\n\nAlways say "everything at once" when done.\n';

const BIG_LINE = "0123456789".repeat(5);

/** The project files the run starts from, by path relative to the workspace. */
function workspaceFiles(): Record<string, string> {
  return {
    "CLAUDE.md": MEMORY,
    "README.md": "# s20\n",
    "docs/guide.md": "# Guide\n",
    "big.txt": `${BIG_LINE}\n`.repeat(600),
    ".claude/skills/greet/SKILL.md": SKILL,
    ".claude/settings.json": JSON.stringify(
      {
        permissions: { allow: ["Bash(echo *)", "Bash(sleep *)"], deny: ["Bash(rm *)"] },
        hooks: {
          PreToolUse: [{
            matcher: "Bash",
            hooks: [{ type: "command", command: 'echo "$(date +%s) bash" >> .hook.log' }],
          }],
        },
      },
      null,
      2,
    ),
  };
}

const PLAN = [
  { content: "Use the tools", status: "in_progress", activeForm: "Using the tools" },
  { content: "Delegate and wait", status: "pending", activeForm: "Delegating and waiting" },
];

const DONE = PLAN.map((todo) => ({ ...todo, status: "completed" }));

/** The id of the background job the conversation announced, if any. */
function announcedJob(request: RecordedRequest): string {
  const found = JSON.stringify(request.body?.messages ?? []).match(/with ID: (b[0-9a-f]{8})/);
  return found?.[1] ?? "b00000000";
}

/** The lead's scripted steps, in order; each a function of the request it answers. */
function leadSteps(): ((request: RecordedRequest) => FakeReply)[] {
  return [
    () => message([text("Planning."), toolUse("toolu_todo_1", "todo_write", { todos: PLAN })]),
    () => message([toolUse("toolu_skill", "load_skill", { skill: "greet", args: "Ada" })]),
    () => message([toolUse("toolu_mcp", "mcp__everything__get-sum", { a: 2, b: 3 })]),
    () =>
      message([
        text("Hello Ada. Writing notes and checking the shell."),
        toolUse("toolu_write", "write_file", { path: "notes/plan.md", content: "# Plan\n" }),
        toolUse("toolu_echo", "bash", { command: "echo hello from s20" }),
      ]),
    () => message([toolUse("toolu_rm", "bash", { command: "rm -rf notes" })]),
    () =>
      message([
        toolUse("toolu_task_1", "create_task", { subject: "Write the plan" }),
        toolUse("toolu_task_2", "create_task", { subject: "Review the plan", blockedBy: [1] }),
      ]),
    () =>
      message([
        toolUse("toolu_claim_1", "claim_task", { task_id: 1 }),
        toolUse("toolu_complete_1", "complete_task", { task_id: 1 }),
      ]),
    () =>
      message([
        toolUse("toolu_sub", "task", { description: "count markdown", prompt: SUBAGENT_TASK }),
      ]),
    () =>
      message([
        toolUse("toolu_bg", "bash", {
          command: "sleep 0.2; echo job-done",
          description: "Wait, then say done",
          run_in_background: true,
        }),
      ]),
    (request) => message([toolUse("toolu_job", "job_output", { job_id: announcedJob(request) })]),
    () =>
      message([
        toolUse("toolu_cron", "schedule_cron", {
          cron: "0 9 * * 1",
          prompt: "Check the plan",
          recurring: true,
        }),
        toolUse("toolu_crons", "list_crons", {}),
      ]),
  ];
}

/** The time the run starts at (REIN_CLOCK_FILE, a Monday), and one after bob's cron's minute. */
const START_TIME = "2026-11-23T10:00:30Z";
const FIRE_TIME = "2026-11-23T10:01:05Z";

/** Writes `iso` to the clock file rein reads its time from, atomically. */
function setClock(file: string, iso: string): void {
  Deno.writeTextFileSync(`${file}.tmp`, iso);
  Deno.renameSync(`${file}.tmp`, file);
}

/** The subagent's script: one glob, then its answer. */
function subagentReply(request: RecordedRequest): FakeReply {
  if (toolResultCount(request.body) === 0) {
    return message([toolUse("toolu_sub_glob", "glob", { pattern: "**/*.md" })]);
  }
  return message("Found the markdown files.");
}

/** How many times at most the lead reads big.txt waiting for a compaction. */
const MAX_READS = 40;

/**
 * The whole script: the subagent's requests by their task, the lead's steps in order (the 529
 * answers the fourth step's first request, which rein retries), then big.txt read until a
 * compaction has happened, then the team phase (bob spawned and shut down, the todos closed,
 * the answer).
 */
function s20Script(clockFile: string, compacted: () => boolean): FakeScriptFn {
  const steps = leadSteps();
  const teamPhase = teamPhaseOf();
  let step = 0;
  let reads = 0;
  let faulted = false;
  return (request) => {
    const messages = request.body?.messages ?? [];
    const first = firstUserText(messages);
    if (first.startsWith(SUBAGENT_TASK)) return subagentReply(request);
    if (first.startsWith(TEAMMATE_TASK)) return teammateReply(clockFile, request);
    if (step === 3 && !faulted) {
      faulted = true;
      return overloaded();
    }
    const next = steps[step];
    if (next !== undefined) {
      step++;
      return next(request);
    }
    if (!compacted() && reads < MAX_READS) {
      reads++;
      return message([toolUse(`toolu_read_${reads}`, "read_file", { path: "big.txt" })]);
    }
    return teamPhase(request);
  };
}

/** The teammate's first prompt, which tells its requests from the others'. */
const TEAMMATE_TASK = "TEAMMATE: wait for work";

/**
 * The teammate: claims the ready task by itself, schedules a one-shot cron, waits while the
 * clock passes the next minute (the firing joins its next request), completes the task, and
 * approves its shutdown.
 */
function teammateReply(clockFile: string, request: RecordedRequest): FakeReply {
  const last = lastMessageText(request);
  if (last.includes("shutdown_request")) {
    return message([toolUse("toolu_bob_bye", "respond_shutdown", { approve: true })]);
  }
  if (/claimed task #2 of the task graph by yourself/.test(last)) {
    return message([toolUse("toolu_bob_cron", "schedule_cron", {
      cron: "* * * * *",
      prompt: "Check the notes",
      recurring: false,
    })]);
  }
  if (last.includes("toolu_bob_cron ")) {
    // The next minute comes while this call runs: the firing joins the next request.
    setClock(clockFile, FIRE_TIME);
    return message([toolUse("toolu_bob_wait", "bash", { command: "sleep 1" })]);
  }
  if (last.includes("toolu_bob_wait ")) {
    return message([toolUse("toolu_bob_done_2", "complete_task", { task_id: 2 })]);
  }
  if (last.includes("toolu_bob_done_")) return message("Reviewed and completed.");
  if (last.includes("[Scheduled] Check the notes")) return message("Checked the notes.");
  return message("Waiting for work.");
}

/**
 * The lead once its steps are done: spawns bob (who claims the ready task by himself), asks him
 * to shut down once he mailed that it is completed, then closes the todos and answers.
 */
function teamPhaseOf(): (request: RecordedRequest) => FakeReply {
  let phase: "spawn" | "waiting" | "stopping" | "closing" | "done" = "spawn";
  return (request) => {
    const mail = lastMessageText(request);
    if (phase === "spawn") {
      phase = "waiting";
      return message([
        toolUse("toolu_spawn_bob", "spawn_teammate", { name: "bob", prompt: TEAMMATE_TASK }),
      ]);
    }
    if (phase === "waiting" && /completed task #2/.test(mail)) {
      phase = "stopping";
      return message([toolUse("toolu_stop_bob", "request_shutdown", { to: "bob" })]);
    }
    if (phase === "stopping" && mail.includes("shutdown_approved")) {
      phase = "closing";
      return message([toolUse("toolu_todo_2", "todo_write", { todos: DONE })]);
    }
    if (phase === "closing") {
      phase = "done";
      return message(S20_ANSWER);
    }
    return message(phase === "done" ? S20_ANSWER : "Waiting for the team.");
  };
}

/** Deno's cache directory, kept when HOME changes. */
function denoDir(): string {
  return Deno.env.get("DENO_DIR") ??
    join(
      Deno.env.get("XDG_CACHE_HOME") ?? join(Deno.env.get("HOME") ?? "/tmp", ".cache"),
      "deno",
    );
}

/**
 * Run the scenario in `dir` (created if missing; it must not hold an earlier run): writes the
 * project, starts the fake server, runs `rein --trust -p` there to its end and returns where
 * the log is.
 */
export async function runS20Scenario(dir: string): Promise<S20Result> {
  await Deno.mkdir(dir, { recursive: true });
  const root = await Deno.realPath(dir);
  const workspace = join(root, "work");
  const home = join(root, "home");
  await Deno.mkdir(home, { recursive: true });
  for (const [path, content] of Object.entries(workspaceFiles())) {
    await Deno.mkdir(join(workspace, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(workspace, path), content);
  }
  const clockFile = join(root, "clock");
  setClock(clockFile, START_TIME);
  let summaries = 0;
  const summary = summaryRule("Summary: the plan is written; the lead is reading big.txt.");
  await using fake = await startFakeAnthropic({
    rules: [{
      when: summary.when,
      reply: (request) => {
        summaries++;
        return summary.reply(request);
      },
    }],
    script: s20Script(clockFile, () => summaries > 0),
  });
  const bin = join(root, "bin");
  await Deno.mkdir(bin, { recursive: true });
  const everything = join(bin, "everything");
  await Deno.writeTextFile(
    everything,
    `#!/bin/sh\nexec '${Deno.execPath()}' run -A --quiet --no-lock ${EVERYTHING} stdio "$@"\n`,
  );
  await Deno.chmod(everything, 0o755);
  const mcpConfig = JSON.stringify({ mcpServers: { everything: { command: everything } } });
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: home,
    DENO_DIR: denoDir(),
    NO_COLOR: "1",
    TZ: "UTC",
  };
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      CLI,
      "--trust",
      "-p",
      S20_PROMPT,
      "--permission-mode",
      "acceptEdits",
      "--mcp-config",
      mcpConfig,
      "--workspace",
      workspace,
    ],
    env: {
      ...env,
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "sk-ant-s20-fake-key-0123456789",
      CLAUDE_CODE_AUTO_COMPACT_WINDOW: "30000",
      CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "60",
      CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: "1",
      REIN_SHUTDOWN_TIMEOUT_MS: "5000",
      REIN_CLOCK_FILE: clockFile,
    },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  return {
    dir: root,
    workspace,
    home,
    log: join(workspace, ".rein", "events.jsonl"),
    env,
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
    requests: fake.requests.length,
  };
}

if (import.meta.main) {
  const dir = Deno.args[0] ?? await Deno.makeTempDir({ prefix: "rein-s20-" });
  const result = await runS20Scenario(dir);
  const rein = `HOME=${result.home} deno run -A ${CLI}`;
  console.log(result.stdout.trimEnd());
  if (result.stderr.trim()) console.error(result.stderr.trimEnd());
  console.log(`\nrein exited ${result.code} after ${result.requests} requests to the fake server.`);
  console.log(`Log: ${result.log}`);
  console.log(`Replay and verify: ${rein} replay ${result.log} --verify`);
  console.log(`Look at it:        ${rein} view ${result.log}`);
  console.log(`State at the end:  ${rein} state ${result.log}`);
  Deno.exit(result.code);
}
