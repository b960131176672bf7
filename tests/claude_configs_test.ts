/**
 * A corpus of Claude Code configurations in the shapes real projects publish (tests/claude_configs/):
 * each folder is a small project (`.claude/settings.json`, hook scripts in Python, Node and
 * bash+jq, commands, skills, rules, agents, CLAUDE.md) and its `case.json` says the prompt, the
 * fake model's script, rein's flags, what Claude Code does (its `source`), and what must follow:
 * files the hooks wrote, what was printed, which calls ran or were refused. Each case runs
 * headless in a temporary copy, HOME a temporary folder (with the case's `home/`), then its log
 * replays with `--verify`.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import {
  type FakeReply,
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-claude-configs-test";
const CORPUS = fileURLToPath(new URL("./claude_configs/", import.meta.url));
/** Deno's cache, kept when HOME moves to a temp directory. */
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");

/** One tool call of a scripted answer. */
interface ScriptCall {
  readonly id: string;
  readonly name: string;
  readonly input: Record<string, unknown>;
}

/** What a case expects once rein has run. */
interface Expect {
  readonly code?: number;
  /** Regular expressions the final stdout must match. */
  readonly stdout?: readonly string[];
  /** Regular expressions stderr must match. */
  readonly stderr?: readonly string[];
  /** Regular expressions stderr must not match. */
  readonly stderrNot?: readonly string[];
  /** Files (relative to the project) and a regular expression their text must match. */
  readonly files?: Readonly<Record<string, string>>;
  /** Files (relative to HOME) and a regular expression their text must match. */
  readonly homeFiles?: Readonly<Record<string, string>>;
  /** Files (relative to the project) that must not exist. */
  readonly absent?: readonly string[];
  /** Call id → the gate's decision ("allow" or "deny"), from permission.decided. */
  readonly decisions?: Readonly<Record<string, string>>;
  /** Regular expressions the first request's messages (as JSON) must match. */
  readonly firstRequest?: readonly string[];
  /** Regular expressions the system prompt of the first request must match. */
  readonly system?: readonly string[];
  /** Regular expressions some later request's messages (as JSON) must match. */
  readonly laterRequest?: readonly string[];
  /** Regular expressions no request's messages may match (what must never reach the model). */
  readonly neverSent?: readonly string[];
  /** Regular expressions the system prompt of some request must match (a subagent's). */
  readonly anySystem?: readonly string[];
  /** How many model requests the run made. */
  readonly requests?: number;
}

/** A case.json. */
interface Case {
  readonly description: string;
  /** The Claude Code documentation behind the expectations. */
  readonly source: string | readonly string[];
  readonly prompt: string;
  readonly args?: readonly string[];
  /** Whether ~/.claude.json trusts the project folder before the run. */
  readonly trusted?: boolean;
  /** Whether the project is a git repository with one commit of its files. */
  readonly git?: boolean;
  /** Files (relative to the project) written after the commit, for `git status` to show. */
  readonly changes?: Readonly<Record<string, string>>;
  /** The model's answers in order: text, or tool calls. */
  readonly script: readonly (string | readonly ScriptCall[])[];
  readonly expect: Expect;
}

/** The model's n-th answer of the turn (counting its earlier answers in the request). */
function answers(script: Case["script"]): FakeScriptFn {
  return (request): FakeReply => {
    const n = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length;
    const step = script[n];
    if (step === undefined) return message("Nothing more.");
    if (typeof step === "string") return message(step);
    return message(step.map((call) => toolUse(call.id, call.name, call.input)));
  };
}

async function git(cwd: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Copies the case's project (all but case.json and home/) and its home into `root`. */
async function setUp(name: string, root: string, kase: Case) {
  const project = join(root, "project");
  const home = join(root, "home");
  await Deno.mkdir(project, { recursive: true });
  await Deno.mkdir(home, { recursive: true });
  for await (const entry of Deno.readDir(join(CORPUS, name))) {
    if (entry.name === "case.json") continue;
    const to = entry.name === "home" ? home : join(project, entry.name);
    const from = join(CORPUS, name, entry.name) + (entry.name === "home" ? "/." : "");
    const out = await new Deno.Command("cp", { args: ["-a", from, to] })
      .output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  }
  const claudeJson = join(home, ".claude.json");
  const trust = kase.trusted ? { projects: { [project]: { hasTrustDialogAccepted: true } } } : {};
  await Deno.writeTextFile(claudeJson, JSON.stringify(trust));
  if (kase.git) {
    await git(project, "init", "-q");
    // The identity in the repository: the sandbox gives bash an empty /tmp, where this HOME is.
    await git(project, "config", "user.email", "casey@example.com");
    await git(project, "config", "user.name", "Casey Example");
    await git(project, "add", "-A");
    await git(project, "commit", "-q", "-m", "initial");
  }
  for (const [file, text] of Object.entries(kase.changes ?? {})) {
    await Deno.writeTextFile(join(project, file), text);
  }
  return { project, home };
}

function matchAll(text: string, patterns: readonly string[] | undefined, what: string): void {
  for (const pattern of patterns ?? []) {
    assert.match(text, new RegExp(pattern), `${what} should match /${pattern}/:\n${text}`);
  }
}

async function runCase(name: string): Promise<void> {
  const kase = JSON.parse(await Deno.readTextFile(join(CORPUS, name, "case.json"))) as Case;
  await using ws = await tempWorkspace();
  const { project, home } = await setUp(name, ws.path, kase);
  await using fake = await startFakeAnthropic({ script: answers(kase.script) });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, HOME: home, DENO_DIR };
  const run = await runCli(
    // `$PROJECT` in an argument is the case's copy (a --plugin-dir inside it).
    [
      "-p",
      kase.prompt,
      ...(kase.args ?? []).map((arg) => arg.replaceAll("$PROJECT", project)),
      "--workspace",
      project,
    ],
    { env },
  );
  const expect = kase.expect;
  const seen = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  assert.equal(run.code, expect.code ?? 0, seen);
  matchAll(run.stdout, expect.stdout, "stdout");
  matchAll(run.stderr, expect.stderr, "stderr");
  for (const pattern of expect.stderrNot ?? []) {
    assert.doesNotMatch(run.stderr, new RegExp(pattern), seen);
  }
  for (const [file, pattern] of Object.entries(expect.files ?? {})) {
    const path = join(project, file);
    assert.ok(await exists(path), `${file} should exist\n${seen}`);
    const text = await Deno.readTextFile(path);
    assert.match(text, new RegExp(pattern), `${file} should match /${pattern}/:\n${text}`);
  }
  for (const [file, pattern] of Object.entries(expect.homeFiles ?? {})) {
    const path = join(home, file);
    assert.ok(await exists(path), `~/${file} should exist\n${seen}`);
    const text = await Deno.readTextFile(path);
    assert.match(text, new RegExp(pattern), `~/${file} should match /${pattern}/:\n${text}`);
  }
  for (const file of expect.absent ?? []) {
    assert.ok(!(await exists(join(project, file))), `${file} should not exist\n${seen}`);
  }
  const log = await readLogLines(join(project, ".rein", "events.jsonl"));
  for (const [callId, decision] of Object.entries(expect.decisions ?? {})) {
    const decided = log.filter((e) =>
      e.type === "permission.decided" && (e.data as { callId?: string }).callId === callId
    ).map((e) => e.data.decision);
    assert.deepEqual(decided.slice(-1), [decision], `${callId}: ${JSON.stringify(decided)}`);
  }
  const requests = fake.requests.map((r) => JSON.stringify(r.body?.messages ?? null));
  matchAll(requests[0] ?? "", expect.firstRequest, "the first request");
  matchAll(JSON.stringify(fake.requests[0]?.body?.system ?? null), expect.system, "the system");
  for (const pattern of expect.laterRequest ?? []) {
    assert.ok(
      requests.slice(1).some((r) => new RegExp(pattern).test(r)),
      `a later request should match /${pattern}/`,
    );
  }
  for (const pattern of expect.neverSent ?? []) {
    for (const request of requests) assert.doesNotMatch(request, new RegExp(pattern));
  }
  const systems = fake.requests.map((r) => JSON.stringify(r.body?.system ?? null));
  for (const pattern of expect.anySystem ?? []) {
    assert.ok(
      systems.some((system) => new RegExp(pattern).test(system)),
      `some system prompt should match /${pattern}/`,
    );
  }
  if (expect.requests !== undefined) assert.equal(fake.requests.length, expect.requests, seen);
  const replay = await runCli(["replay", "--verify", "-q", "--workspace", project], {
    env: { HOME: home, DENO_DIR },
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  assert.match(replay.stdout, /all match the log/);
}

const names = [...Deno.readDirSync(CORPUS)].filter((e) => e.isDirectory).map((e) => e.name).sort();

Deno.test("the corpus holds at least 20 configurations, each with a source", () => {
  assert.ok(names.length >= 20, `${names.length} cases`);
  for (const name of names) {
    const kase = JSON.parse(Deno.readTextFileSync(join(CORPUS, name, "case.json"))) as Case;
    assert.ok(kase.source.length > 0, name);
  }
});

for (const name of names) {
  const kase = JSON.parse(Deno.readTextFileSync(join(CORPUS, name, "case.json"))) as Case;
  Deno.test(`claude config ${name}: ${kase.description}`, () => runCase(name));
}
