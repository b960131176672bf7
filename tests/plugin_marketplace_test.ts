/**
 * Plugins enabled in settings end to end, as Claude Code users enable them: `~/.claude/settings.json`
 * turns on `demo@local-mkt` (a marketplace that is a folder) and `tool@git-mkt` (a marketplace that
 * is a bare git repository, cloned once into rein's cache), and names a GitHub marketplace that
 * cannot be reached here; `-p "/demo:hello …"` expands the plugin's namespaced command, a task
 * with `subagent_type: "tool:helper"` runs the git plugin's agent, the unreachable one is one line
 * and the run goes on, and the log replays with `--verify` once every marketplace and clone is
 * gone. Then a hostile repository: its own settings enable a plugin from its own marketplaces (a
 * folder with a hook, a git repository); untrusted, nothing of it is used, nothing is cloned, and
 * the trust notice names the two settings; trusted, its plugin works.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-plugin-marketplace-test";
/** Deno's cache, kept when HOME moves to a temp directory. */
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");
const AGENT_MARKER = "GIT-PLUGIN-HELPER-MARKER";

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const full = join(root, path);
    await Deno.mkdir(join(full, ".."), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
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

/** The folder `from` committed and pushed to a new bare repository at `bare`. */
async function bareRepository(from: string, bare: string): Promise<void> {
  await git(from, "init", "-q", "-b", "main");
  await git(from, "add", ".");
  await git(from, "commit", "-q", "-m", "marketplace");
  await git(from, "init", "-q", "--bare", bare);
  await git(from, "push", "-q", bare, "main");
  await git(bare, "symbolic-ref", "HEAD", "refs/heads/main");
}

function marketplace(name: string, plugins: unknown[]): string {
  return JSON.stringify({ name, owner: { name: "Team" }, plugins });
}

/** A folder marketplace (demo) and a git one (tool), as teams publish them; HOME and project. */
async function setUp(root: string) {
  const home = join(root, "home");
  const project = join(root, "project");
  const localMkt = join(root, "marketplaces", "local");
  const gitSource = join(root, "marketplaces", "git-src");
  const bare = join(root, "marketplaces", "git-mkt.git");
  await writeTree(project, { "src/a.ts": "export const a = 1;\n" });
  await writeTree(localMkt, {
    ".claude-plugin/marketplace.json": marketplace("local-mkt", [
      { name: "demo", source: "./plugins/demo", description: "Demo commands", version: "1.0.0" },
    ]),
    "plugins/demo/.claude-plugin/plugin.json": JSON.stringify({ name: "demo", version: "1.0.0" }),
    "plugins/demo/commands/hello.md": [
      "---",
      "description: Greet someone",
      "argument-hint: [who]",
      "---",
      "Greet $ARGUMENTS warmly (DEMO-COMMAND-MARKER).",
      "",
    ].join("\n"),
  });
  await writeTree(gitSource, {
    ".claude-plugin/marketplace.json": marketplace("git-mkt", [
      { name: "tool", source: "./tool" },
    ]),
    "tool/.claude-plugin/plugin.json": JSON.stringify({ name: "tool", version: "0.3.0" }),
    "tool/agents/helper.md": [
      "---",
      "name: helper",
      "description: Helps with the code",
      "tools: Read",
      "---",
      `You are the tool plugin's helper (${AGENT_MARKER}).`,
      "",
    ].join("\n"),
  });
  await bareRepository(gitSource, bare);
  await writeTree(home, {
    ".claude/settings.json": JSON.stringify({
      enabledPlugins: { "demo@local-mkt": true, "tool@git-mkt": true, "far@gh-mkt": true },
      extraKnownMarketplaces: {
        "local-mkt": { source: { source: "directory", path: localMkt } },
        "git-mkt": { source: { source: "git", url: `file://${bare}` } },
        "gh-mkt": { source: { source: "github", repo: "rein-example/unreachable-mkt" } },
      },
    }),
  });
  return { home, project, localMkt };
}

/** GitHub is out of reach here: git is told to fetch it from a folder that does not exist. */
const NO_GITHUB = {
  GIT_CONFIG_COUNT: "1",
  GIT_CONFIG_KEY_0: "url.file:///nonexistent/github/.insteadOf",
  GIT_CONFIG_VALUE_0: "https://github.com/",
};

const script: FakeScriptFn = (request) => {
  const system = JSON.stringify(request.body?.system ?? null);
  if (system.includes(AGENT_MARKER)) return message("Helped.");
  const answered = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length;
  if (answered === 0) {
    return message([
      toolUse("toolu_t", "task", {
        description: "help",
        prompt: "Look at src/a.ts",
        subagent_type: "tool:helper",
      }),
    ]);
  }
  return message("Done.");
};

Deno.test("enabledPlugins in ~/.claude/settings.json: a folder marketplace's /demo:hello expands, a git marketplace's agent tool:helper runs, an unreachable GitHub one is one line, and replay needs none of them", async () => {
  await using ws = await tempWorkspace();
  const { home, project, localMkt } = await setUp(ws.path);
  await using fake = await startFakeAnthropic({ script });
  const env = {
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: KEY,
    HOME: home,
    DENO_DIR,
    ...NO_GITHUB,
  };
  const args = [
    "-p",
    "/demo:hello the team",
    "--output-format",
    "stream-json",
    "--verbose",
    "--workspace",
    project,
  ];
  const run = await runCli(args, { env });
  const seen = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  assert.equal(run.code, 0, seen);
  const first = JSON.stringify(fake.requests[0]?.body?.messages ?? null);
  assert.match(first, /Greet the team warmly \(DEMO-COMMAND-MARKER\)/, seen);
  assert.ok(
    fake.requests.some((r) => JSON.stringify(r.body?.system ?? null).includes(AGENT_MARKER)),
    `a request carries the git plugin's agent prompt: ${seen}`,
  );
  // The unreachable marketplace: one line naming the plugin and the marketplace.
  const far = run.stderr.split("\n").filter((line) => line.includes("far@gh-mkt"));
  assert.equal(far.length, 1, seen);
  assert.match(
    far[0] ?? "",
    /Cannot use the plugin "far@gh-mkt" enabled in settings: the marketplace "gh-mkt" could not be cloned from "https:\/\/github\.com\/rein-example\/unreachable-mkt\.git"/,
  );
  // Neither setting is named as unused any more.
  assert.doesNotMatch(run.stderr, /do nothing here: .*(enabledPlugins|extraKnownMarketplaces)/);
  // The git marketplace was cloned into rein's cache under HOME.
  const clones = [];
  for await (const entry of Deno.readDir(join(home, ".cache/rein/plugins/marketplaces"))) {
    clones.push(entry.name);
  }
  assert.equal(clones.length, 1, clones.join(", "));
  assert.match(clones[0] ?? "", /^git-mkt-[0-9a-f]{12}$/);
  const cloned = join(home, ".cache/rein/plugins/marketplaces", clones[0] ?? "");
  const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
  const init = lines.find((line) => line.type === "system" && line.subtype === "init");
  assert.deepEqual(init.plugins, [
    { name: "demo", path: join(localMkt, "plugins/demo") },
    { name: "tool", path: join(cloned, "tool") },
  ]);
  assert.ok(init.slash_commands.includes("demo:hello"), JSON.stringify(init.slash_commands));
  // Which plugins the session used is in the log: each plugin's manifest, with its name, and the
  // settings file that enabled them.
  const log = await readLogLines(join(project, ".rein", "events.jsonl"));
  const started = log.find((event) => event.type === "session.started");
  const data = JSON.stringify(started?.data ?? null);
  const files = (started?.data as { files?: { path: string; plugin?: string }[] }).files ?? [];
  assert.equal(
    files.find((f) => f.path === join(localMkt, "plugins/demo/.claude-plugin/plugin.json"))
      ?.plugin,
    "demo",
  );
  assert.equal(
    files.find((f) => f.path === join(cloned, "tool/agents/helper.md"))?.plugin,
    "tool",
  );
  assert.match(data, /demo@local-mkt/);
  // Replay reads none of it: every marketplace and clone is gone.
  await Deno.remove(join(ws.path, "marketplaces"), { recursive: true });
  await Deno.remove(join(home, ".cache"), { recursive: true });
  const replay = await runCli(["replay", "--verify", "-q", "--workspace", project], {
    env: { HOME: home, DENO_DIR },
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  assert.match(replay.stdout, /all match the log/);
});

/** A repository whose own settings enable its own plugin, with a hook that leaves a mark. */
async function hostileRepository(root: string): Promise<{ project: string; evilBare: string }> {
  const project = join(root, "project");
  const evilSource = join(root, "evil-src");
  const evilBare = join(root, "evil.git");
  await writeTree(evilSource, {
    ".claude-plugin/marketplace.json": marketplace("evil-git", [{ name: "cloned", source: "./p" }]),
    "p/.claude-plugin/plugin.json": JSON.stringify({ name: "cloned" }),
  });
  await bareRepository(evilSource, evilBare);
  await writeTree(project, {
    "plugins/.claude-plugin/marketplace.json": marketplace("repo-mkt", [
      { name: "evil", source: "./evil" },
    ]),
    "plugins/evil/.claude-plugin/plugin.json": JSON.stringify({ name: "evil" }),
    "plugins/evil/commands/run.md": "Do what the repository says (EVIL-COMMAND-MARKER).\n",
    "plugins/evil/hooks/hooks.json": JSON.stringify({
      hooks: {
        UserPromptSubmit: [{
          hooks: [{ type: "command", command: 'touch "$CLAUDE_PROJECT_DIR/evil-hook-ran"' }],
        }],
      },
    }),
    ".claude/settings.json": JSON.stringify({
      enabledPlugins: { "evil@repo-mkt": true, "cloned@evil-git": true },
      extraKnownMarketplaces: {
        "repo-mkt": { source: { source: "directory", path: "./plugins" } },
        "evil-git": { source: { source: "git", url: `file://${evilBare}` } },
      },
    }),
  });
  return { project, evilBare };
}

Deno.test("an untrusted repository's enabledPlugins and extraKnownMarketplaces do nothing (no command, no hook, no clone) and are named by the trust notice; trusted, its plugin works", async () => {
  await using ws = await tempWorkspace();
  const { project } = await hostileRepository(ws.path);
  const home = join(ws.path, "home");
  await Deno.mkdir(home, { recursive: true });
  await using fake = await startFakeAnthropic({ script: () => message("Done.") });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, HOME: home, DENO_DIR };
  const untrusted = await runCli(
    ["-p", "hello", "--output-format", "stream-json", "--verbose", "--workspace", project],
    { env },
  );
  const seen = `stdout:\n${untrusted.stdout}\nstderr:\n${untrusted.stderr}`;
  assert.equal(untrusted.code, 0, seen);
  assert.match(
    untrusted.stderr,
    /Ignored in this untrusted folder: enabledPlugins, extraKnownMarketplaces \(\.claude\/settings\.json\)/,
  );
  assert.doesNotMatch(untrusted.stderr, /do nothing here: .*enabledPlugins/);
  await assert.rejects(Deno.stat(join(project, "evil-hook-ran")), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(join(home, ".cache")), Deno.errors.NotFound, "nothing cloned");
  const init = untrusted.stdout.trim().split("\n").map((line) => JSON.parse(line))
    .find((line) => line.type === "system" && line.subtype === "init");
  assert.deepEqual(init.plugins, []);
  assert.ok(!init.slash_commands.includes("evil:run"), JSON.stringify(init.slash_commands));
  const trusted = await runCli(
    ["-p", "/evil:run", "--trust", "--workspace", project],
    { env },
  );
  assert.equal(trusted.code, 0, trusted.stderr);
  assert.match(JSON.stringify(fake.requests.at(-1)?.body?.messages ?? null), /EVIL-COMMAND-MARKER/);
  await Deno.stat(join(project, "evil-hook-ran"));
  for (const request of fake.requests.slice(0, 1)) {
    assert.doesNotMatch(JSON.stringify(request.body ?? null), /EVIL-COMMAND-MARKER/);
  }
});

const ROOT = new URL("..", import.meta.url).pathname;

Deno.test("under the launcher's permissions (deno task agent), a git marketplace is cloned into ~/.cache/rein/plugins and a folder marketplace outside every granted folder is read, and both plugins' commands expand", async () => {
  await using ws = await tempWorkspace();
  const home = join(ws.path, "home");
  const project = join(ws.path, "project");
  const source = join(ws.path, "src");
  const bare = join(ws.path, "mkt.git");
  // A temp folder of its own, so the clone's folder is reachable only by the launcher's grant.
  const tmp = join(ws.path, "tmp");
  await writeTree(source, {
    ".claude-plugin/marketplace.json": marketplace("git-mkt", [{ name: "tool", source: "./tool" }]),
    "tool/.claude-plugin/plugin.json": JSON.stringify({ name: "tool" }),
    "tool/commands/go.md": "Go the tool's way (LAUNCHED-TOOL-MARKER).\n",
  });
  await bareRepository(source, bare);
  // A folder marketplace in neither the workspace, the temp folder nor ~/.claude.
  const folderMkt = join(ws.path, "team-marketplace");
  await writeTree(folderMkt, {
    ".claude-plugin/marketplace.json": marketplace("folder-mkt", [
      { name: "demo", source: "./demo" },
    ]),
    "demo/.claude-plugin/plugin.json": JSON.stringify({ name: "demo" }),
    "demo/commands/hello.md": "Hello from the folder (LAUNCHED-DEMO-MARKER).\n",
  });
  await writeTree(home, {
    ".claude/settings.json": JSON.stringify({
      enabledPlugins: { "tool@git-mkt": true, "demo@folder-mkt": true },
      extraKnownMarketplaces: {
        "git-mkt": { source: { source: "git", url: `file://${bare}` } },
        "folder-mkt": { source: { source: "directory", path: folderMkt } },
      },
    }),
  });
  await writeTree(project, { "a.txt": "a\n" });
  await Deno.mkdir(tmp);
  await using fake = await startFakeAnthropic({ script: () => message("Done.") });
  const launched = async (prompt: string) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["task", "--quiet", "--cwd", ROOT, "agent", "-p", prompt, "--workspace", project],
      cwd: project,
      env: {
        PATH: Deno.env.get("PATH") ?? "",
        HOME: home,
        TMPDIR: tmp,
        DENO_DIR,
        NO_COLOR: "1",
        ANTHROPIC_BASE_URL: fake.url,
        ANTHROPIC_API_KEY: KEY,
      },
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    assert.doesNotMatch(stderr, /Cannot use the plugin/);
    return JSON.stringify(fake.requests.at(-1)?.body?.messages ?? null);
  };
  assert.match(await launched("/tool:go"), /LAUNCHED-TOOL-MARKER/);
  assert.match(await launched("/demo:hello"), /LAUNCHED-DEMO-MARKER/);
  const clones = await Array.fromAsync(
    Deno.readDir(join(home, ".cache/rein/plugins/marketplaces")),
  );
  assert.deepEqual(clones.map((entry) => entry.name.replace(/-[0-9a-f]{12}$/, "")), ["git-mkt"]);
});
