/**
 * Claude Code plugin folders end to end (`--plugin-dir DIR`): a plugin in the shape published ones
 * have (`.claude-plugin/plugin.json`, a command with frontmatter, an agent, a skill, and a
 * `hooks/hooks.json` whose PostToolUse hook is a bash+jq script named through
 * `${CLAUDE_PLUGIN_ROOT}`), run as `-p "/myplugin:cmd args"` against the fake model: the
 * namespaced command expands, the hook runs with `CLAUDE_PLUGIN_ROOT` set, a task call with
 * `subagent_type: "myplugin:reviewer"` runs the plugin's agent, stream-json's `init` lists the
 * plugin and its command, and the log replays with `--verify` after the plugin folder is gone.
 * Then the hostile shapes: a symbolic link out of the plugin's folder, a name with ":" or "/" in
 * it, two plugins of one name.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { CLI, readLogLines, runCli, tempWorkspace } from "./_cli.ts";
import { type Screen, shellQuote, Terminal } from "./_tmux.ts";
import { planLaunch } from "../cli/_launch_plan.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

const KEY = "sk-ant-plugin-dir-test";
/** Deno's cache, kept when HOME moves to a temp directory. */
const DENO_DIR = Deno.env.get("DENO_DIR") ??
  join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");
const AGENT_MARKER = "PLUGIN-REVIEWER-MARKER";

/** Writes `files` (path relative to `root` → text) and makes `.sh` files executable. */
async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    const full = join(root, path);
    await Deno.mkdir(join(full, ".."), { recursive: true });
    await Deno.writeTextFile(full, text);
    if (path.endsWith(".sh")) await Deno.chmod(full, 0o755);
  }
}

/** A plugin as published ones are laid out, named `name` in its manifest. */
function pluginFiles(name: string): Record<string, string> {
  return {
    ".claude-plugin/plugin.json": JSON.stringify({
      name,
      version: "1.2.0",
      description: "Review helpers",
      author: { name: "Casey Example", email: "casey@example.com" },
      license: "MIT",
      keywords: ["review"],
    }),
    "commands/cmd.md": [
      "---",
      "description: Review a file the plugin's way",
      "argument-hint: [file]",
      "allowed-tools: Write",
      "---",
      "Review $ARGUMENTS with the plugin's checklist (PLUGIN-COMMAND-MARKER).",
      "",
    ].join("\n"),
    "agents/reviewer.md": [
      "---",
      "name: reviewer",
      "description: Reviews code for the plugin",
      "tools: Read, Glob",
      "---",
      `You are the plugin's reviewer (${AGENT_MARKER}).`,
      "",
    ].join("\n"),
    "skills/lint/SKILL.md": [
      "---",
      "name: lint",
      "description: Lint the project the plugin's way",
      "---",
      "Run the linter.",
      "",
    ].join("\n"),
    "hooks/hooks.json": JSON.stringify({
      description: "Log every write",
      hooks: {
        PostToolUse: [{
          matcher: "Write|Edit",
          hooks: [{ type: "command", command: "${CLAUDE_PLUGIN_ROOT}/scripts/log-write.sh" }],
        }],
      },
    }),
    "scripts/log-write.sh": [
      "#!/usr/bin/env bash",
      "set -euo pipefail",
      'path=$(jq -r ".tool_response.filePath // .tool_input.file_path")',
      'echo "wrote $path from $CLAUDE_PLUGIN_ROOT" >> "$CLAUDE_PROJECT_DIR/plugin-hook.log"',
      "",
    ].join("\n"),
    ".mcp.json": JSON.stringify({ mcpServers: { docs: { command: "docs-server" } } }),
  };
}

/** The parent writes a file and asks the plugin's reviewer; the reviewer answers. */
const script: FakeScriptFn = (request) => {
  const system = JSON.stringify(request.body?.system ?? null);
  if (system.includes(AGENT_MARKER)) return message("Reviewed: fine.");
  const answered = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length;
  if (answered === 0) {
    return message([
      toolUse("toolu_w", "write_file", { path: "review.md", content: "# Review\n" }),
      toolUse("toolu_t", "task", {
        description: "review",
        prompt: "Review src/a.ts",
        subagent_type: "myplugin:reviewer",
      }),
    ]);
  }
  return message("Done.");
};

async function setUp(root: string): Promise<{ project: string; home: string; plugin: string }> {
  const project = join(root, "project");
  const home = join(root, "home");
  const plugin = join(root, "plugins", "myplugin");
  await writeTree(project, { "src/a.ts": "export const a = 1;\n" });
  await Deno.mkdir(home, { recursive: true });
  await writeTree(plugin, pluginFiles("myplugin"));
  return { project, home, plugin };
}

Deno.test("--plugin-dir: /myplugin:cmd expands, the plugin's hook runs with CLAUDE_PLUGIN_ROOT, its agent answers a task, init lists it, and replay needs no plugin folder", async () => {
  await using ws = await tempWorkspace();
  const { project, home, plugin } = await setUp(ws.path);
  await using fake = await startFakeAnthropic({ script });
  const run = await runCli(
    [
      "-p",
      "/myplugin:cmd src/a.ts",
      "--plugin-dir",
      plugin,
      "--output-format",
      "stream-json",
      "--verbose",
      "--workspace",
      project,
    ],
    { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, HOME: home, DENO_DIR } },
  );
  const seen = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  assert.equal(run.code, 0, seen);
  // The command expanded, namespaced as Claude Code names it.
  const first = JSON.stringify(fake.requests[0]?.body?.messages ?? null);
  assert.match(first, /Review src\/a\.ts with the plugin's checklist \(PLUGIN-COMMAND-MARKER\)/);
  // Its allowed-tools let the write run headless; the plugin's hook logged it, from its folder.
  const logged = await Deno.readTextFile(join(project, "plugin-hook.log"));
  assert.equal(logged, `wrote ${join(project, "review.md")} from ${plugin}\n`);
  // The plugin's agent ran the task, with its own prompt.
  assert.ok(
    fake.requests.some((r) => JSON.stringify(r.body?.system ?? null).includes(AGENT_MARKER)),
    "a request carries the plugin agent's prompt",
  );
  const lines = run.stdout.trim().split("\n").map((line) => JSON.parse(line));
  const init = lines.find((line) => line.type === "system" && line.subtype === "init");
  assert.deepEqual(init.plugins, [{ name: "myplugin", path: plugin }]);
  assert.ok(init.slash_commands.includes("myplugin:cmd"), JSON.stringify(init.slash_commands));
  assert.ok(init.slash_commands.includes("myplugin:lint"), JSON.stringify(init.slash_commands));
  const task = lines.find((line) =>
    line.type === "user" && JSON.stringify(line).includes("toolu_t")
  );
  assert.match(JSON.stringify(task), /Reviewed: fine\./);
  // Its MCP servers are named once as unused.
  assert.match(run.stderr, /do nothing here: .*\.mcp\.json \(plugin myplugin\)/);
  // The log holds the plugin's files, each with its name; replay reads none of the folder.
  const log = await readLogLines(join(project, ".rein", "events.jsonl"));
  const started = log.find((event) => event.type === "session.started");
  const files = (started?.data as { files?: { source: string; path: string; plugin?: string }[] })
    .files ?? [];
  for (const part of ["commands/cmd.md", "agents/reviewer.md", "skills/lint/SKILL.md"]) {
    const file = files.find((f) => f.path === join(plugin, part));
    assert.equal(file?.plugin, "myplugin", `${part} recorded with its plugin: ${seen}`);
  }
  await Deno.remove(join(ws.path, "plugins"), { recursive: true });
  const replay = await runCli(["replay", "--verify", "-q", "--workspace", project], {
    env: { HOME: home, DENO_DIR },
  });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  assert.match(replay.stdout, /all match the log/);
});

Deno.test("--plugin-dir: a plugin's command answers to its bare name while no other command has it", async () => {
  await using ws = await tempWorkspace();
  const { project, home, plugin } = await setUp(ws.path);
  await using fake = await startFakeAnthropic({ script: () => message("Done.") });
  const run = await runCli(
    ["-p", "/cmd src/a.ts", "--plugin-dir", plugin, "--workspace", project],
    { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, HOME: home, DENO_DIR } },
  );
  assert.equal(run.code, 0, run.stderr);
  const first = JSON.stringify(fake.requests[0]?.body?.messages ?? null);
  assert.match(first, /PLUGIN-COMMAND-MARKER/);
});

Deno.test("--plugin-dir: a link out of the plugin's folder, a name with ':' or '/', and a second plugin of one name are refused, each in one line, and the rest works", async () => {
  await using ws = await tempWorkspace();
  const { project, home, plugin } = await setUp(ws.path);
  // A command that leads out of the plugin's folder, to a file holding a secret.
  await Deno.writeTextFile(join(ws.path, "secret.md"), "SECRET-OUTSIDE-MARKER\n");
  await Deno.symlink(join(ws.path, "secret.md"), join(plugin, "commands", "leak.md"));
  const colon = join(ws.path, "plugins", "colon");
  await writeTree(colon, pluginFiles("evil:name"));
  const slash = join(ws.path, "plugins", "slash");
  await writeTree(slash, pluginFiles("../escape"));
  const twin = join(ws.path, "plugins", "twin");
  await writeTree(twin, pluginFiles("myplugin"));
  const bad = join(ws.path, "plugins", "bad");
  await writeTree(bad, { ".claude-plugin/plugin.json": '{"name": "bad", "commands": 42}' });
  await using fake = await startFakeAnthropic({ script: () => message("Done.") });
  const run = await runCli(
    [
      "-p",
      "/myplugin:leak",
      ...[plugin, colon, slash, twin, bad].flatMap((dir) => ["--plugin-dir", dir]),
      "--workspace",
      project,
    ],
    { env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, HOME: home, DENO_DIR } },
  );
  const seen = `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
  assert.match(run.stderr, /Skipped the command at ".*leak\.md": .*outside/, seen);
  assert.match(run.stderr, /Skipped the plugin at ".*colon": .*"name" "evil:name" cannot name/);
  assert.match(run.stderr, /Skipped the plugin at ".*slash": .*"name" "\.\.\/escape" cannot name/);
  assert.match(
    run.stderr,
    /Skipped the plugin at ".*twin": the plugin "myplugin" at ".*myplugin" has the same name/,
  );
  assert.match(run.stderr, /Skipped the plugin at ".*bad": ".*plugin\.json" "commands" is/);
  for (const request of fake.requests) {
    assert.doesNotMatch(JSON.stringify(request.body ?? null), /SECRET-OUTSIDE-MARKER/);
  }
  // The plugin given first still works: its command is there, the leaked one is not.
  const log = await readLogLines(join(project, ".rein", "events.jsonl"));
  const started = log.find((event) => event.type === "session.started");
  const paths = ((started?.data as { files?: { path: string }[] }).files ?? []).map((f) => f.path);
  assert.ok(paths.includes(join(plugin, "commands", "cmd.md")), paths.join("\n"));
  assert.ok(!paths.some((path) => path.includes("leak") || path.startsWith(colon)));
});

Deno.test("--plugin-dir in the REPL: /plugin lists the plugin with its version, source and parts, /help its command, and /myplugin:cmd runs", async () => {
  await using ws = await tempWorkspace();
  const { project, home, plugin } = await setUp(ws.path);
  await using fake = await startFakeAnthropic({ script: () => message("Checked.") });
  const exitFile = join(ws.path, "exitcode");
  const command = [
    "env -u NO_COLOR",
    `HOME=${shellQuote(home)} DENO_DIR=${shellQuote(DENO_DIR)}`,
    `ANTHROPIC_BASE_URL=${shellQuote(fake.url)} ANTHROPIC_API_KEY=${KEY}`,
    `${shellQuote(Deno.execPath())} run -A ${shellQuote(CLI)} agent`,
    `--plugin-dir ${shellQuote(plugin)} --workspace ${shellQuote(project)};`,
    `echo $? > ${shellQuote(exitFile)}`,
  ].join(" ");
  const terminal = await Terminal.start(`sh -c ${shellQuote(command)}`);
  try {
    const atPrompt = (screen: Screen) => screen.cursorLine === ">" && screen.cursorX === 2;
    const exchange = async (line: string, shows: RegExp) => {
      await terminal.type(line);
      await terminal.press("Enter");
      return (await terminal.waitFor(`${line} answered`, (s) => atPrompt(s) && shows.test(s.text)))
        .text;
    };
    await terminal.waitFor("the prompt", atPrompt);
    const listed = await exchange("/plugin", /hooks?\b/);
    assert.match(listed, new RegExp(`myplugin 1\\.2\\.0  \\(--plugin-dir: ${plugin}\\)`));
    assert.match(listed, /1 command, 1 agent, 1 skill, 1 hook — Review helpers/);
    const help = await exchange("/help", /plugin:myplugin/);
    assert.match(
      help,
      /\/myplugin:cmd \[file\] {2}Review a file the plugin's way \(plugin:myplugin\)/,
    );
    await exchange("/myplugin:cmd src/a.ts", /Checked\./);
    assert.match(
      JSON.stringify(fake.requests[0]?.body?.messages ?? null),
      /Review src\/a\.ts with the plugin's checklist/,
    );
    await terminal.press("C-d");
    for (let i = 0; i < 250; i++) {
      if ((await Deno.readTextFile(exitFile).catch(() => "")).endsWith("\n")) break;
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    assert.equal((await Deno.readTextFile(exitFile)).trim(), "0");
  } finally {
    await terminal.close();
  }
});

Deno.test("the launchers let the agent read every --plugin-dir folder (relative to where rein was started), and the shell one agrees with the launch plan", async () => {
  await using ws = await tempWorkspace();
  const home = join(ws.path, "home");
  await Deno.mkdir(join(home, ".claude"), { recursive: true });
  await Deno.mkdir(join(ws.path, "project"));
  await Deno.mkdir(join(ws.path, "plugins", "a"), { recursive: true });
  await Deno.mkdir(join(ws.path, "plugins", "b"), { recursive: true });
  const argv = [
    "-p",
    "hi",
    "--plugin-dir",
    "plugins/a",
    `--plugin-dir=${join(ws.path, "plugins", "b")}`,
    "--workspace",
    "project",
  ];
  const env = { HOME: home };
  const realPath = (path: string) => {
    try {
      return Deno.realPathSync(path);
    } catch {
      return undefined;
    }
  };
  const plan = planLaunch({ argv, env, cwd: ws.path, root: ROOT, realPath });
  const read = plan.permissions.find((flag) => flag.startsWith("--allow-read="))?.split(",") ?? [];
  assert.ok(read.some((path) => path.endsWith("/plugins/a")), read.join("\n"));
  assert.ok(read.some((path) => path.endsWith("/plugins/b")), read.join("\n"));
  const out = await new Deno.Command("sh", {
    args: [join(ROOT, "cli", "launch.sh"), "--show-permissions", ...argv],
    env: { PATH: Deno.env.get("PATH") ?? "", REIN_DENO: Deno.execPath(), ...env },
    clearEnv: true,
    cwd: ws.path,
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  assert.deepEqual(new TextDecoder().decode(out.stdout).trimEnd().split("\n"), plan.permissions);
});
