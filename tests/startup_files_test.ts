/**
 * The files rein reads when a session starts (CLAUDE.md, AGENTS.md, CLAUDE.local.md and their
 * `@imports`, the memory index, skills, agent definitions) against a hostile repository: links
 * out of the repository to a private key or the person's credentials, imports that lead out of
 * it, a named pipe and a sparse file of gigabytes. rein runs as it does for a person, under the
 * launcher's narrowed Deno permissions, against the fake model; what must not leak is looked for
 * in every request the model got and in every byte of the log.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type FakeAnthropic, startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { echo } from "../testing/scenarios.ts";
import { CLI, type CliResult } from "./_cli.ts";

const LAUNCHER = fileURLToPath(new URL("../cli/launch.sh", import.meta.url));
const KEY = "sk-ant-api03-KNOWN-SECRET-abcdef0123456789";
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");
/** Replay may read the log and the environment; it gets no net, run or write permission. */
const REPLAY_ONLY = ["--allow-read", "--allow-env"];
/** A run that takes longer has hung (a failure guard only, never a measure of speed). */
const HUNG_AFTER_MS = 30_000;

const PRIVATE_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nFAKE-KEY-b3BlbnNzaC1rZXk\n";
const CREDENTIALS = '{"claudeAiOauth":{"accessToken":"sk-ant-oat01-FAKE-CREDENTIAL"}}\n';

/**
 * A person's home (`home/`, with a private key in `.ssh/` and Claude credentials in `.claude/`)
 * holding a repository (`home/repo`, the workspace), and `outside/`, a folder beside the home.
 */
async function machine() {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-startup-" }));
  const home = join(base, "home");
  const ws = join(home, "repo");
  const outside = join(base, "outside");
  for (const dir of [join(home, ".ssh"), join(home, ".claude"), join(ws, ".git"), outside]) {
    await Deno.mkdir(dir, { recursive: true });
  }
  await Deno.writeTextFile(join(home, ".ssh", "id_rsa"), PRIVATE_KEY);
  await Deno.writeTextFile(join(home, ".claude", ".credentials.json"), CREDENTIALS);
  await Deno.writeTextFile(join(ws, "README.md"), "A repository.\n");
  return {
    base,
    home,
    ws,
    outside,
    log: join(ws, ".rein", "events.jsonl"),
    [Symbol.asyncDispose]: () => Deno.remove(base, { recursive: true }),
  };
}

type Machine = Awaited<ReturnType<typeof machine>>;

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
}

/** Runs `deno args` with a clean environment; fails the test if it has not ended in time. */
async function guarded(
  args: string[],
  env: Record<string, string>,
): Promise<CliResult> {
  const abort = new AbortController();
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    abort.abort();
  }, HUNG_AFTER_MS);
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args,
      env: { PATH: Deno.env.get("PATH") ?? "", NO_COLOR: "1", DENO_DIR, ...env },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: abort.signal,
    }).output();
    const decoder = new TextDecoder();
    const result = {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
    assert.ok(!hung, `rein ${args.slice(-6).join(" ")} hung: ${result.stderr}`);
    return result;
  } finally {
    clearTimeout(timer);
  }
}

/** The Deno flags the launcher gives `rein agent` for this machine. */
async function launcherFlags(m: Machine, fake: FakeAnthropic): Promise<string[]> {
  const out = await new Deno.Command("sh", {
    args: [LAUNCHER, "agent", "--show-permissions", "--workspace", m.ws],
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      REIN_DENO: Deno.execPath(),
      HOME: m.home,
      ANTHROPIC_BASE_URL: fake.url,
    },
    clearEnv: true,
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trimEnd().split("\n");
}

/** A headless run `rein -p hello` in the workspace, as the launcher would start it. */
async function startSession(m: Machine, fake: FakeAnthropic): Promise<CliResult> {
  const flags = await launcherFlags(m, fake);
  const run = await guarded(
    ["run", ...flags, "--quiet", CLI, "agent", "-p", "hello", "--workspace", m.ws],
    { HOME: m.home, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  );
  assert.equal(run.code, 0, run.stderr);
  return run;
}

/** `rein replay --verify` of the workspace's log, with read permission only. */
async function verify(m: Machine): Promise<void> {
  const replay = await guarded(
    ["run", ...REPLAY_ONLY, "--quiet", CLI, "replay", "--verify", "-q", "--workspace", m.ws],
    { HOME: m.home },
  );
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  assert.match(replay.stdout, /all match the log/);
}

/** Asserts `text` is in no request the model got and nowhere in the log's bytes. */
async function assertNowhere(m: Machine, fake: FakeAnthropic, text: string): Promise<void> {
  assert.ok(fake.requests.length > 0, "the model was asked");
  const requests = JSON.stringify(fake.requests.map((r) => r.body));
  assert.ok(!requests.includes(text), `"${text}" reached the model`);
  const log = await Deno.readTextFile(m.log);
  assert.ok(!log.includes(text), `"${text}" is in the log`);
}

function systemText(fake: FakeAnthropic): string {
  const system = fake.requests[0]?.body?.system;
  if (system === undefined) return "";
  return typeof system === "string"
    ? system
    : system.map((b) => "text" in b ? String(b.text) : "").join("\n\n");
}

/** The files the log's first session recorded. */
async function recordedFiles(
  m: Machine,
): Promise<{ source: string; path: string; text: string }[]> {
  const lines = (await Deno.readTextFile(m.log)).split("\n").filter(Boolean);
  const started = lines.map((line) => JSON.parse(line)).find((e) => e.type === "session.started");
  return started?.data?.files ?? [];
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

Deno.test("a repository CLAUDE.md linked to the person's private key reaches neither the model nor the log", async () => {
  await using m = await machine();
  await Deno.symlink(join(m.home, ".ssh", "id_rsa"), join(m.ws, "CLAUDE.md"));
  await write(join(m.ws, "AGENTS.md"), "REPO-RULES: run the tests.\n");
  await using fake = await startFakeAnthropic({ script: echo() });
  const run = await startSession(m, fake);
  await assertNowhere(m, fake, "FAKE-KEY-b3BlbnNzaC1rZXk");
  assert.match(
    run.stderr,
    new RegExp(
      `Skipped instructions "${escaped(join(m.ws, "CLAUDE.md"))}": it leads to "${
        escaped(join(m.home, ".ssh", "id_rsa"))
      }", which is where credentials are kept; rein never reads them`,
    ),
  );
  assert.match(systemText(fake), /REPO-RULES: run the tests\./, "the other files still load");
  await verify(m);
});

Deno.test("an AGENTS.md linked to a file outside the repository is skipped with a notice", async () => {
  await using m = await machine();
  await write(join(m.outside, "notes.md"), "OUTSIDE-NOTES: the staging password is hunter2\n");
  await Deno.symlink(join(m.outside, "notes.md"), join(m.ws, "AGENTS.md"));
  await using fake = await startFakeAnthropic({ script: echo() });
  const run = await startSession(m, fake);
  await assertNowhere(m, fake, "OUTSIDE-NOTES");
  assert.match(
    run.stderr,
    new RegExp(
      `Skipped instructions "${escaped(join(m.ws, "AGENTS.md"))}": it leads to "${
        escaped(join(m.outside, "notes.md"))
      }", outside "${escaped(m.ws)}"`,
    ),
  );
  await verify(m);
});

Deno.test("a skill folder or a SKILL.md linked out of the workspace is neither listed nor recorded", async () => {
  await using m = await machine();
  await write(
    join(m.outside, "skill", "SKILL.md"),
    "---\nname: exfil\ndescription: EXFIL-SKILL from outside\n---\nOUTSIDE-SKILL-BODY\n",
  );
  await write(
    join(m.outside, "single.md"),
    "---\nname: single\ndescription: SINGLE-SKILL from outside\n---\nOUTSIDE-SINGLE-BODY\n",
  );
  const skills = join(m.ws, ".claude", "skills");
  await Deno.mkdir(join(skills, "single"), { recursive: true });
  await Deno.symlink(join(m.outside, "skill"), join(skills, "exfil"));
  await Deno.symlink(join(m.outside, "single.md"), join(skills, "single", "SKILL.md"));
  await write(join(skills, "fine", "SKILL.md"), "---\ndescription: FINE-SKILL\n---\nok\n");
  await using fake = await startFakeAnthropic({ script: echo() });
  const run = await startSession(m, fake);
  for (const text of ["EXFIL-SKILL", "OUTSIDE-SKILL-BODY", "SINGLE-SKILL", "OUTSIDE-SINGLE"]) {
    await assertNowhere(m, fake, text);
  }
  assert.match(systemText(fake), /- fine: FINE-SKILL/);
  assert.match(
    run.stderr,
    new RegExp(
      `Skipped the skill at "${escaped(join(skills, "exfil", "SKILL.md"))}": it leads to "${
        escaped(join(m.outside, "skill", "SKILL.md"))
      }", outside "${escaped(m.ws)}"`,
    ),
  );
  assert.match(
    run.stderr,
    new RegExp(`Skipped the skill at "${escaped(join(skills, "single", "SKILL.md"))}": it leads`),
  );
  await verify(m);
});

Deno.test("an agent definition linked out of the workspace, or one rein skips, leaves no text in the log", async () => {
  await using m = await machine();
  await write(
    join(m.outside, "agent.md"),
    "---\nname: outsider\ndescription: OUTSIDER-AGENT\n---\nOUTSIDER-PROMPT\n",
  );
  const agents = join(m.ws, ".claude", "agents");
  await Deno.mkdir(agents, { recursive: true });
  await Deno.symlink(join(m.home, ".ssh", "id_rsa"), join(agents, "key.md"));
  await Deno.symlink(join(m.outside, "agent.md"), join(agents, "outsider.md"));
  await write(join(agents, "broken.md"), "No frontmatter. BROKEN-AGENT-TEXT\n");
  await write(
    join(agents, "reviewer.md"),
    "---\nname: reviewer\ndescription: REVIEWER-AGENT\n---\nReview.\n",
  );
  await using fake = await startFakeAnthropic({ script: echo() });
  const run = await startSession(m, fake);
  for (const text of ["FAKE-KEY", "OUTSIDER-AGENT", "OUTSIDER-PROMPT", "BROKEN-AGENT-TEXT"]) {
    await assertNowhere(m, fake, text);
  }
  assert.ok(JSON.stringify(fake.requests[0]?.body?.tools).includes("REVIEWER-AGENT"));
  assert.deepEqual(
    (await recordedFiles(m)).filter((f) => f.source === "agents").map((f) => f.path),
    [join(agents, "reviewer.md")],
  );
  const skipped = (name: string) => `Skipped the agent definition at "${join(agents, name)}": `;
  assert.ok(run.stderr.includes(`${skipped("key.md")}it leads to "${join(m.home, ".ssh")}`));
  assert.ok(run.stderr.includes(`${skipped("outsider.md")}it leads to "${m.outside}`));
  assert.ok(run.stderr.includes(`${skipped("broken.md")}it has no frontmatter`));
  await verify(m);
});

Deno.test("@~/.claude/.credentials.json is imported neither by a repository's CLAUDE.md nor by the person's own", async () => {
  await using m = await machine();
  await write(join(m.ws, "CLAUDE.md"), "REPO: hello\n@~/.claude/.credentials.json\n");
  await write(
    join(m.home, ".claude", "CLAUDE.md"),
    "MINE: sign off as Rein.\n@~/.claude/.credentials.json\n@~/notes/style.md\n",
  );
  await write(join(m.home, "notes", "style.md"), "MY-STYLE: tabs.\n");
  await using fake = await startFakeAnthropic({ script: echo() });
  const run = await startSession(m, fake);
  await assertNowhere(m, fake, "FAKE-CREDENTIAL");
  const system = systemText(fake);
  for (const kept of ["REPO: hello", "MINE: sign off", "MY-STYLE: tabs"]) {
    assert.ok(system.includes(kept), `${kept} is in the prompt: the person may import from home`);
  }
  const credentials = join(m.home, ".claude", ".credentials.json");
  assert.ok(
    run.stderr.includes(
      `Not importing "@~/.claude/.credentials.json" at line 2 of "${
        join(m.home, ".claude", "CLAUDE.md")
      }": it is where credentials are kept; rein never reads them`,
    ),
    run.stderr,
  );
  assert.ok(
    run.stderr.includes(
      `Not importing "@~/.claude/.credentials.json" at line 2 of "${join(m.ws, "CLAUDE.md")}": ` +
        `it is where credentials are kept`,
    ),
    run.stderr,
  );
  assert.ok(!(await recordedFiles(m)).some((f) => f.path === credentials));
  await verify(m);
});

Deno.test("an import from a repository's CLAUDE.md that leads out of it is refused headless, saying how to use it", async () => {
  await using m = await machine();
  await write(join(m.ws, "CLAUDE.md"), "REPO: hello\n@../outside.md\n");
  await write(join(m.home, "outside.md"), "LEFT-THE-REPOSITORY: private notes\n");
  await using fake = await startFakeAnthropic({ script: echo() });
  const run = await startSession(m, fake);
  await assertNowhere(m, fake, "LEFT-THE-REPOSITORY");
  assert.match(systemText(fake), /REPO: hello/);
  assert.ok(
    run.stderr.includes(
      `Not importing "@../outside.md" at line 2 of "${join(m.ws, "CLAUDE.md")}": it leads to "${
        join(m.home, "outside.md")
      }", outside "${m.ws}"; a repository's instructions import only files inside it (to use ` +
        "that file, import it from your own ~/.claude/CLAUDE.md)",
    ),
    run.stderr,
  );
  await verify(m);
});

Deno.test({
  name: "a named pipe called CLAUDE.md does not stop start-up, and replay never opens it",
  ignore: Deno.build.os === "windows",
  async fn() {
    await using m = await machine();
    const fifo = join(m.ws, "CLAUDE.md");
    const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
    assert.equal(made.code, 0);
    await write(join(m.ws, "AGENTS.md"), "REPO-RULES: still here.\n");
    await using fake = await startFakeAnthropic({ script: echo() });
    const run = await startSession(m, fake);
    assert.equal(run.stdout.trim(), "You said: hello");
    assert.match(systemText(fake), /REPO-RULES: still here\./);
    assert.ok(
      run.stderr.includes(
        `Skipped instructions "${fifo}": it is a named pipe, not a regular file`,
      ),
      run.stderr,
    );
    await verify(m);
  },
});

Deno.test("a sparse CLAUDE.md of 2 GB is cut to the cap with a notice, read no further than the cap", async () => {
  await using m = await machine();
  const path = join(m.ws, "CLAUDE.md");
  const lines = Array.from({ length: 5_000 }, (_, i) => `RULE ${i}: keep it short.\n`).join("");
  await write(path, lines);
  // Past the text, 2 GB of zero bytes that take no disk: never read, or it is "not a text file".
  await Deno.truncate(path, 2 ** 31);
  await using fake = await startFakeAnthropic({ script: echo() });
  const run = await startSession(m, fake);
  assert.match(systemText(fake), /RULE 0: keep it short\./);
  assert.doesNotMatch(systemText(fake), /RULE 4999:/);
  assert.ok(
    run.stderr.includes(
      `Instructions "${path}" are 2147483.6 KB, over the 40 KB cap for one file: only the first`,
    ),
    run.stderr,
  );
  const recorded = (await recordedFiles(m)).find((f) => f.path === path);
  assert.ok(recorded && recorded.text.length <= 40_000 && recorded.text.startsWith("RULE 0:"));
  await verify(m);
});
