/**
 * The whole harness at once (issue 25, s20): one scripted `rein -p` session, in a git
 * repository, against the fake Anthropic server that uses tools, permission rules and a mode
 * answering a question, a hook, todos, a skill, memory (CLAUDE.md with an import, a path rule
 * brought in by a read, and the memory index: a topic file read, a new one saved), MCP tools from
 * a real server (server-everything over stdio), a subagent, the task graph, a git worktree bound
 * to a task, a background job, cron tools, a recovered model error (a scripted 529), a compaction
 * (a small window) and two teammate processes with mail and both protocols. Bob (a reviewer)
 * gets his own cron's firing (time from REIN_CLOCK_FILE) and mails the lead; alice, spawned in
 * plan mode, is refused a write and submits a plan, which the lead approves through the protocol
 * once bob's mail is in; she then claims the writer's task by herself and completes it, which
 * makes the review ready: bob claims it by himself, which moves him into the worktree bound to
 * it, commits his review on its branch and completes it. The lead shuts both down through the
 * protocol. The fake model answers each agent by what its request holds, and the lead acts on
 * its mail in whatever order it arrives. Run it with `deno run -A testing/s20_scenario.ts [DIR]`;
 * it prints where the log is and how to replay it.
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
  // Memory and skills are files read at the start, recorded in `session.started` (`files`); a
  // path rule joins when a file it names is read (`reminder.added`); the memory index's topic
  // files are read and written with the file tools.
  "memory (CLAUDE.md, a path rule, the memory index)": ["session.started", "reminder.added"],
  "skills": ["session.started", "tool.completed"],
  "subagent": ["agent.spawned"],
  "task graph": ["task.created", "task.claimed", "task.completed"],
  "worktree": ["worktree.created"],
  "background job": ["job.started", "job.finished"],
  "cron (a firing on REIN_CLOCK_FILE's time)": [
    "cron.scheduled",
    "cron.read",
    "cron.fired",
    "cron.delivered",
  ],
  "recovered model error": ["model.failed"],
  "compaction": ["compaction.started", "compaction.completed", "context.spilled"],
  "MCP (server-everything over stdio)": ["mcp.configured", "mcp.observed"],
  "teammates and mail": ["agent.spawned", "agent.started", "mail.sent", "agent.stopped"],
  "protocols (plan approval and shutdown)": ["protocol.requested", "protocol.answered"],
  "auto-claim (in a worktree)": ["task.claimed", "arrival.injected", "agent.moved"],
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
  /** The system prompt of the first request of each agent (`lead`, `alice`, `bob`), as sent. */
  readonly systemPrompts: Readonly<Record<string, string>>;
}

const SKILL = "---\ndescription: Greets people by name\nargument-hint: [name]\n---\n" +
  "Say hello to $ARGUMENTS, then carry on.\n";

const MEMORY = '# Project memory\n\nAlways say "everything at once" when done.\n\n' +
  "@docs/conventions.md\n";

/** What CLAUDE.md imports. */
export const CONVENTIONS = "# Conventions\n\nReviews go in review.md, one per worktree.\n";

/** A rule that joins only when a `.txt` file is read. */
const TXT_RULE = '---\npaths: ["**/*.txt"]\n---\nText files here are generated: never edit them.\n';

/** The memory index as the run starts: one topic file, which the lead reads. */
export const MEMORY_INDEX = "- [Team](team.md): who reviews and who writes\n";

/** The topic file the index names. */
export const TEAM_TOPIC = "bob reviews in a worktree; alice writes after her plan is approved.\n";

/** The topic file the lead saves, and the line it adds to the index. */
export const SAVED_TOPIC = "Compaction comes early here: the window is small.\n";
export const SAVED_INDEX_LINE = "- [Context](context.md): the window is small";

const BIG_LINE = "0123456789".repeat(5);

/** The project files the run starts from, by path relative to the workspace. */
function workspaceFiles(): Record<string, string> {
  return {
    "CLAUDE.md": MEMORY,
    "README.md": "# s20\n",
    ".gitignore": ".rein/\n",
    "docs/guide.md": "# Guide\n",
    "docs/conventions.md": CONVENTIONS,
    "big.txt": `${BIG_LINE}\n`.repeat(600),
    ".claude/rules/txt.md": TXT_RULE,
    ".claude/skills/greet/SKILL.md": SKILL,
    ".claude/settings.json": JSON.stringify(
      {
        permissions: {
          allow: ["Bash(echo *)", "Bash(sleep *)", "Bash(git *)"],
          deny: ["Bash(rm *)"],
        },
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
    // The memory index and its topic file, kept out of git under `.rein/`.
    ".rein/memory/MEMORY.md": MEMORY_INDEX,
    ".rein/memory/team.md": TEAM_TOPIC,
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
    () => message([toolUse("toolu_memory", "read_file", { path: ".rein/memory/team.md" })]),
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
        toolUse("toolu_task_2", "create_task", {
          subject: "Write the checklist",
          description: "Write notes/alice.md.",
          blockedBy: [1],
          role: "writer",
        }),
        toolUse("toolu_task_3", "create_task", {
          subject: "Review the checklist",
          description: "Write review.md in the worktree and commit it.",
          blockedBy: [2],
          role: "reviewer",
        }),
      ]),
    () => message([toolUse("toolu_worktree", "create_worktree", { name: "review", task_id: 3 })]),
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
    () =>
      message([
        toolUse("toolu_save_topic", "write_file", {
          path: ".rein/memory/context.md",
          content: SAVED_TOPIC,
        }),
        toolUse("toolu_read_index", "read_file", { path: ".rein/memory/MEMORY.md" }),
      ]),
    () =>
      message([
        toolUse("toolu_save_index", "edit_file", {
          path: ".rein/memory/MEMORY.md",
          old_string: MEMORY_INDEX.trimEnd(),
          new_string: `${MEMORY_INDEX.trimEnd()}\n${SAVED_INDEX_LINE}`,
        }),
      ]),
  ];
}

/** The step whose first request the fake server answers with a 529 (rein retries it). */
const FAULTED_STEP = 4;

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
 * The whole script: the subagent's and each teammate's requests by their first prompt, the
 * lead's steps in order (a 529 answers {@link FAULTED_STEP}'s first request, which rein
 * retries), then big.txt read until a compaction has happened, then the team phase (alice and
 * bob spawned, alice's plan approved, both shut down, the todos closed, the answer).
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
    if (first.startsWith(BOB_TASK)) return bobReply(clockFile, request);
    if (first.startsWith(ALICE_TASK)) return aliceReply(request);
    if (step === FAULTED_STEP && !faulted) {
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

/** Bob's first prompt, which tells his requests from the others'. */
const BOB_TASK = "BOB: check the notes, then review what is ready";

/** Alice's first prompt. */
const ALICE_TASK = "ALICE: plan first, then write what is ready";

/** The git identity bob commits with (the run's HOME has no git config). */
const GIT = "git -c user.name=bob -c user.email=bob@example.com";

/** What bob mails the lead once his cron has fired. */
const BOB_CHECKED = "bob: notes checked";

/**
 * Bob (a reviewer): schedules a one-shot cron and moves the clock past its minute; idle, the
 * firing wakes him and he mails the lead. When alice's task is done he claims the review task by
 * himself, which moves him into its worktree (his process started again there); he writes
 * review.md there, commits it on the worktree's branch and completes the task (which mails the
 * lead); he approves his shutdown. Each step is chosen by what his last message holds, so news
 * that comes together is still taken up.
 */
function bobReply(clockFile: string, request: RecordedRequest): FakeReply {
  const last = lastMessageText(request);
  if (last.includes("shutdown_request")) {
    return message([toolUse("toolu_bob_bye", "respond_shutdown", { approve: true })]);
  }
  if (/claimed task #3 of the task graph by yourself/.test(last)) {
    return message([toolUse("toolu_bob_review", "write_file", {
      path: "review.md",
      content: "# Review\n\nThe checklist is fine.\n",
    })]);
  }
  if (last.includes("toolu_bob_review ")) {
    return message([toolUse("toolu_bob_commit", "bash", {
      command: `git add review.md && ${GIT} commit -q -m "Review the checklist"`,
    })]);
  }
  if (last.includes("toolu_bob_commit ")) {
    return message([toolUse("toolu_bob_done_3", "complete_task", { task_id: 3 })]);
  }
  if (last.includes("toolu_bob_done_3 ")) return message("Reviewed and completed.");
  if (last.includes("[Scheduled] Check the notes")) {
    return message([toolUse("toolu_bob_mail", "send_message", {
      to: "team-lead",
      content: BOB_CHECKED,
    })]);
  }
  if (last.includes("toolu_bob_mail ")) return message("Told the lead.");
  if (last.startsWith(BOB_TASK)) {
    return message([toolUse("toolu_bob_cron", "schedule_cron", {
      cron: "* * * * *",
      prompt: "Check the notes",
      recurring: false,
    })]);
  }
  if (last.includes("toolu_bob_cron ")) {
    // The next minute comes: the firing wakes bob once this turn has ended.
    setClock(clockFile, FIRE_TIME);
    return message("Waiting for the check.");
  }
  return message("Waiting for work.");
}

/**
 * Alice (a writer, spawned in plan mode): her write is refused before a plan is approved; she
 * submits one and waits for the lead's answer; approved, she waits for work, claims the
 * checklist task by herself, writes it and completes the task (which mails the lead and makes
 * the review ready); she approves her shutdown.
 */
function aliceReply(request: RecordedRequest): FakeReply {
  const last = lastMessageText(request);
  if (last.includes("shutdown_request")) {
    return message([toolUse("toolu_alice_bye", "respond_shutdown", { approve: true })]);
  }
  if (/claimed task #2 of the task graph by yourself/.test(last)) {
    return message([toolUse("toolu_alice_write", "write_file", ALICE_WRITE)]);
  }
  if (last.includes("toolu_alice_write ")) {
    return message([toolUse("toolu_alice_done_2", "complete_task", { task_id: 2 })]);
  }
  if (last.includes("toolu_alice_done_2 ")) return message("Written and completed.");
  if (last.startsWith(ALICE_TASK)) {
    return message([toolUse("toolu_alice_early", "write_file", ALICE_WRITE)]);
  }
  if (last.includes("toolu_alice_early ")) {
    return message([toolUse("toolu_alice_plan", "submit_plan", { plan: ALICE_PLAN })]);
  }
  if (last.includes("toolu_alice_plan ")) return message("Plan approved; waiting for work.");
  return message("Nothing to do.");
}

/** Alice's plan and her write. */
const ALICE_PLAN = "Write notes/alice.md with the checklist for the review.";
export const ALICE_WRITE = { path: "notes/alice.md", content: "# Checklist\n\n- review.md\n" };

/** The mail in all of a request's messages, in order: each `<teammate-message>`'s sender and text. */
function mailSoFar(request: RecordedRequest): { from: string; text: string }[] {
  const texts = (request.body?.messages ?? []).flatMap(({ content }) =>
    typeof content === "string"
      ? [content]
      : content.flatMap((block) => block.type === "text" ? [String(block.text)] : [])
  );
  const blocks = texts.join("\n").matchAll(
    /<teammate-message teammate_id="([^"]*)"[^>]*>([^]*?)<\/teammate-message>/g,
  );
  return [...blocks].map((match) => ({ from: match[1] ?? "", text: match[2] ?? "" }));
}

/**
 * The lead once its steps are done: spawns alice (a writer, in plan mode) and bob (a reviewer)
 * at once, then acts on their mail in whatever order it comes (each action once, all that are
 * due in one answer): approves alice's plan once bob has also said his notes are checked, asks
 * each to shut down once it has completed its task, and once both approved, closes the todos
 * and answers. While there is nothing to act on it waits (its turn ends; mail wakes it).
 */
function teamPhaseOf(): (request: RecordedRequest) => FakeReply {
  const done = new Set<string>();
  const mail = new Map<string, { from: string; text: string }>();
  let spawned = false;
  return (request) => {
    if (!spawned) {
      spawned = true;
      return message([
        toolUse("toolu_spawn_alice", "spawn_teammate", {
          name: "alice",
          prompt: ALICE_TASK,
          role: "writer",
          mode: "plan",
        }),
        toolUse("toolu_spawn_bob", "spawn_teammate", {
          name: "bob",
          prompt: BOB_TASK,
          role: "reviewer",
        }),
      ]);
    }
    // Kept across requests: a compaction may summarize mail away.
    for (const letter of mailSoFar(request)) mail.set(JSON.stringify(letter), letter);
    const has = (from: string, pattern: RegExp) =>
      [...mail.values()].some((letter) => letter.from === from && pattern.test(letter.text));
    const calls: ReturnType<typeof toolUse>[] = [];
    const once = (key: string, when: boolean, call: () => ReturnType<typeof toolUse>) => {
      if (!when || done.has(key)) return;
      done.add(key);
      calls.push(call());
    };
    const planned = has("alice", /plan_approval_request/) && has("bob", new RegExp(BOB_CHECKED));
    once(
      "review",
      planned,
      () => toolUse("toolu_review_alice", "review_plan", { teammate: "alice", approve: true }),
    );
    once(
      "stop alice",
      has("alice", /completed task #2/),
      () => toolUse("toolu_stop_alice", "request_shutdown", { to: "alice" }),
    );
    once(
      "stop bob",
      has("bob", /completed task #3/),
      () => toolUse("toolu_stop_bob", "request_shutdown", { to: "bob" }),
    );
    const stopped = has("alice", /shutdown_approved/) && has("bob", /shutdown_approved/);
    once("close", stopped, () => toolUse("toolu_todo_2", "todo_write", { todos: DONE }));
    if (calls.length > 0) return message(calls);
    return message(done.has("close") ? S20_ANSWER : "Waiting for the team.");
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
  // A git repository with the project committed: worktrees are made from its HEAD.
  await git(workspace, "init", "--quiet", "--initial-branch=main");
  await git(workspace, "add", "--all");
  await git(workspace, "commit", "--quiet", "-m", "s20: the project");
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
      // Every shutdown here is answered: the timeout only bounds a run that went wrong.
      REIN_SHUTDOWN_TIMEOUT_MS: "30000",
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
    systemPrompts: firstSystemPrompts(fake.requests),
  };
}

/** Runs git in `cwd` with a fixed identity and no configuration of the person's; throws if it fails. */
async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=s20", "-c", "user.email=s20@example.com", ...args],
    cwd,
    env: { GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    const detail = new TextDecoder().decode(out.stderr).trim();
    throw new Error(`Git failed: "git ${args.join(" ")}": ${detail}`);
  }
}

/** The system prompt of each agent's first request, by agent (lead, alice, bob). */
function firstSystemPrompts(requests: readonly RecordedRequest[]): Record<string, string> {
  const prompts: Record<string, string> = {};
  for (const request of requests) {
    const first = firstUserText(request.body?.messages ?? []);
    const agent = first.startsWith(ALICE_TASK)
      ? "alice"
      : first.startsWith(BOB_TASK)
      ? "bob"
      : first.includes(S20_PROMPT)
      ? "lead"
      : undefined;
    if (agent === undefined || agent in prompts) continue;
    const system = request.body?.system ?? "";
    prompts[agent] = typeof system === "string"
      ? system
      : system.map((block) => String(block.text ?? "")).join("\n");
  }
  return prompts;
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
