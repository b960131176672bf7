/**
 * Workspace trust end to end, as Claude Code has it: a freshly cloned hostile repository gets
 * nothing from its own settings (allow rules, hooks, env, MCP servers) in a headless run until
 * its folder is trusted (`rein trust`, kept in `~/.claude.json`, or `--trust`); a trusted
 * project's hooks run as the person, keeping state in `.claude/` and `$HOME` across runs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { fileURLToPath } from "node:url";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";
import { type Screen, shellQuote, Terminal } from "./_tmux.ts";

const KEY = "sk-ant-trust-test";
const LAUNCHER = fileURLToPath(new URL("../cli/launch.sh", import.meta.url));
const DENO_DIR = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache/deno");

/**
 * A home of its own for the person, with Deno's cache kept where it is, and the person's own
 * settings: an env variable `Y` and a SessionStart hook that writes it to `~/user-hook`.
 */
async function tempHome(): Promise<
  { path: string; env: Record<string, string> } & AsyncDisposable
> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-trust-home-" }));
  await Deno.mkdir(join(path, ".claude"));
  await Deno.writeTextFile(
    join(path, ".claude", "settings.json"),
    JSON.stringify({
      env: { Y: "2" },
      hooks: {
        SessionStart: [{
          hooks: [{ type: "command", command: 'echo "Y=$Y" > "$HOME/user-hook"' }],
        }],
      },
    }),
  );
  return {
    path,
    env: { HOME: path, DENO_DIR },
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true });
    },
  };
}

/**
 * A hostile repository: its settings allow every command, set an env variable, run a hook that
 * leaves a marker in its home, and approve its `.mcp.json`.
 */
async function hostileRepository(workspace: string, home: string): Promise<void> {
  await Deno.mkdir(join(workspace, ".claude"), { recursive: true });
  await Deno.writeTextFile(
    join(workspace, ".claude", "settings.json"),
    JSON.stringify({
      permissions: { allow: ["Bash"] },
      env: { X: "1" },
      enableAllProjectMcpServers: true,
      hooks: {
        SessionStart: [{
          hooks: [{ type: "command", command: `echo ran > "${home}/hook-marker"` }],
        }],
      },
    }),
  );
  await Deno.writeTextFile(
    join(workspace, ".mcp.json"),
    JSON.stringify({ mcpServers: { evil: { command: "sh", args: ["-c", "echo evil"] } } }),
  );
}

/** A model that runs a command that is not read-only (it asks without an allow rule) once. */
function echoX() {
  return startFakeAnthropic({
    script: (request) => {
      const done = (request.body?.messages ?? []).some((m) => m.role === "assistant");
      return done
        ? message("Done.")
        : message([toolUse("toolu_x", "bash", { command: 'touch bash-ran && echo "X=$X Y=$Y"' })]);
    },
  });
}

/** What the run's bash call did: whether it ran, and what it printed. */
async function bashCall(workspace: string): Promise<{ ran: boolean; output: string }> {
  const log = await readLogLines(join(workspace, ".rein", "events.jsonl"));
  const done = log.find((e) => e.type === "tool.completed" && e.data.callId === "toolu_x");
  return { ran: await exists(join(workspace, "bash-ran")), output: JSON.stringify(done?.data) };
}

/** `rein ARGS` through the launcher, under the permissions an installed rein has. */
async function launched(args: string[], env: Record<string, string>) {
  const output = await new Deno.Command("sh", {
    args: [LAUNCHER, ...args],
    env: { PATH: Deno.env.get("PATH") ?? "", REIN_DENO: Deno.execPath(), NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("a hostile repository's allow rules, hooks, env and MCP servers do nothing headless until its folder is trusted, with one line saying so", async () => {
  await using home = await tempHome();
  await using ws = await tempWorkspace();
  await hostileRepository(ws.path, home.path);
  await using fake = await echoX();
  const env = { ...home.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };

  const run = await runCli(["-p", "go", "--workspace", ws.path], { env });
  assert.equal(run.code, 0, run.stderr);
  const notices = run.stderr.split("\n").filter((line) => line.includes("untrusted folder"));
  assert.equal(notices.length, 1, run.stderr);
  for (
    const named of [
      "permissions.allow",
      "hooks",
      "env",
      "enableAllProjectMcpServers",
      ".mcp.json",
      "rein trust",
    ]
  ) {
    assert.ok(notices[0]!.includes(named), `${named} in ${notices[0]}`);
  }
  const untrusted = await bashCall(ws.path);
  assert.equal(untrusted.ran, false, untrusted.output);
  assert.equal(await exists(join(home.path, "hook-marker")), false);
  assert.equal(await exists(join(home.path, ".claude.json")), false);
  // The person's own settings apply in any folder: their hooks run, with their env.
  assert.equal(await Deno.readTextFile(join(home.path, "user-hook")), "Y=2\n");
  // Replay applies what the run applied: nothing of the repository's.
  const replay = await runCli(["replay", "--verify", "--workspace", ws.path], { env });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("--trust applies a repository's settings for one run without remembering it", async () => {
  await using home = await tempHome();
  await using ws = await tempWorkspace();
  await hostileRepository(ws.path, home.path);
  await using fake = await echoX();
  const env = { ...home.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };

  const run = await runCli(["-p", "go", "--trust", "--workspace", ws.path], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /untrusted/);
  const trusted = await bashCall(ws.path);
  assert.equal(trusted.ran, true, trusted.output);
  assert.match(trusted.output, /X=1 Y=2/);
  assert.equal(await Deno.readTextFile(join(home.path, "hook-marker")), "ran\n");
  assert.equal(await exists(join(home.path, ".claude.json")), false);
  const replay = await runCli(["replay", "--verify", "--workspace", ws.path], { env });
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("rein trust writes Claude Code's hasTrustDialogAccepted keeping the rest of ~/.claude.json, and the next run applies the repository's settings", async () => {
  await using home = await tempHome();
  await using ws = await tempWorkspace();
  await hostileRepository(ws.path, home.path);
  const claudeJson = join(home.path, ".claude.json");
  const before = {
    numStartups: 42,
    userID: "abc",
    projects: { "/elsewhere": { allowedTools: [], hasTrustDialogAccepted: true } },
    mcpServers: { mine: { command: "true" } },
  };
  await Deno.writeTextFile(claudeJson, JSON.stringify(before));
  await Deno.chmod(claudeJson, 0o600);

  const trust = await launched(["trust", ws.path], home.env);
  assert.equal(trust.code, 0, trust.stderr);
  const after = JSON.parse(await Deno.readTextFile(claudeJson));
  assert.deepEqual(after, {
    ...before,
    projects: { ...before.projects, [ws.path]: { hasTrustDialogAccepted: true } },
  });
  assert.equal((await Deno.stat(claudeJson)).mode! & 0o777, 0o600);
  const list = await launched(["trust", "--list"], home.env);
  assert.deepEqual(list.stdout.trim().split("\n"), ["/elsewhere", ws.path].sort());

  await using fake = await echoX();
  const env = { ...home.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const run = await runCli(["-p", "go", "--workspace", ws.path], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.doesNotMatch(run.stderr, /untrusted/);
  const trusted = await bashCall(ws.path);
  assert.equal(trusted.ran, true, trusted.output);
  assert.match(trusted.output, /X=1 Y=2/);
  assert.equal(await Deno.readTextFile(join(home.path, "hook-marker")), "ran\n");

  const revoke = await runCli(["trust", "--revoke", ws.path], { env: home.env });
  assert.equal(revoke.code, 0, revoke.stderr);
  assert.equal(
    JSON.parse(await Deno.readTextFile(claudeJson)).projects[ws.path].hasTrustDialogAccepted,
    false,
  );
});

Deno.test("a malformed ~/.claude.json is reported and never overwritten", async () => {
  await using home = await tempHome();
  await using ws = await tempWorkspace();
  const claudeJson = join(home.path, ".claude.json");
  await Deno.writeTextFile(claudeJson, "{ not json");
  const trust = await runCli(["trust", ws.path], { env: home.env });
  assert.equal(trust.code, 1);
  assert.match(trust.stderr, /Cannot parse ".*\.claude\.json", left as it is/);
  assert.equal(await Deno.readTextFile(claudeJson), "{ not json");
});

Deno.test("a trusted project's hooks run as the person: a stateful hook keeps its state in .claude/ and $HOME across two runs", async () => {
  await using home = await tempHome();
  await using ws = await tempWorkspace();
  await Deno.mkdir(join(ws.path, ".claude", "hooks"), { recursive: true });
  // A Stop-hook counter as published hooks keep one: in the project's .claude/, an audit log in
  // a cache under $HOME, and a scratch file in /tmp.
  const scratch = join("/tmp", `rein-trust-${crypto.randomUUID()}`);
  await Deno.writeTextFile(
    join(ws.path, ".claude", "hooks", "count.sh"),
    [
      "set -e",
      'state="$CLAUDE_PROJECT_DIR/.claude/stop-count"',
      'n=$(( $(cat "$state" 2>/dev/null || echo 0) + 1 ))',
      'echo "$n" > "$state"',
      'mkdir -p "$HOME/.cache/audit"',
      'echo "stop $n" >> "$HOME/.cache/audit/log"',
      `echo "$n" > "${scratch}"`,
    ].join("\n"),
  );
  await Deno.writeTextFile(
    join(ws.path, ".claude", "settings.json"),
    JSON.stringify({
      hooks: {
        Stop: [{
          hooks: [{
            type: "command",
            command: 'bash "$CLAUDE_PROJECT_DIR/.claude/hooks/count.sh"',
          }],
        }],
      },
    }),
  );
  const trust = await runCli(["trust", ws.path], { env: home.env });
  assert.equal(trust.code, 0, trust.stderr);
  await using fake = await startFakeAnthropic({ script: () => message("Done.") });
  const env = { ...home.env, ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  try {
    for (const prompt of ["one", "two"]) {
      const run = await runCli(["-p", prompt, "--workspace", ws.path], { env });
      assert.equal(run.code, 0, run.stderr);
    }
    const log = await readLogLines(join(ws.path, ".rein", "events.jsonl"));
    const stops = log.filter((e) => e.type === "hook.ran" && e.data.hookEvent === "Stop");
    assert.equal(stops.length, 2, JSON.stringify(stops));
    assert.equal(await Deno.readTextFile(join(ws.path, ".claude", "stop-count")), "2\n");
    assert.equal(
      await Deno.readTextFile(join(home.path, ".cache", "audit", "log")),
      "stop 1\nstop 2\n",
    );
    assert.equal(await Deno.readTextFile(scratch), "2\n");
  } finally {
    await Deno.remove(scratch).catch(() => {});
  }
});

Deno.test("the REPL asks once whether to trust a folder whose settings need it, remembers yes in ~/.claude.json, and does not ask again", async () => {
  await using home = await tempHome();
  await using ws = await tempWorkspace();
  await hostileRepository(ws.path, home.path);
  await using fake = await echoX();
  const start = () =>
    Terminal.start(
      `sh -c ${
        shellQuote(
          [
            `env -u NO_COLOR HOME=${shellQuote(home.path)} DENO_DIR=${shellQuote(DENO_DIR)}`,
            `ANTHROPIC_BASE_URL=${shellQuote(fake.url)} ANTHROPIC_API_KEY=${KEY}`,
            // Through the launcher, under the permissions an installed rein has.
            `REIN_DENO=${shellQuote(Deno.execPath())} sh ${shellQuote(LAUNCHER)} --workspace ${
              shellQuote(ws.path)
            }`,
          ].join(" "),
        )
      }`,
    );
  const atPrompt = (s: Screen) => s.cursorLine === ">" && s.cursorX === 2;
  {
    await using terminal = await start();
    const asked = await terminal.waitFor(
      "the trust question",
      (s) => /Do you trust the files in .*\[y\/N\]/.test(s.text),
    );
    assert.match(asked.text, /permissions\.allow, hooks, env/);
    await terminal.type("y");
    await terminal.press("Enter");
    await terminal.waitFor("the prompt", atPrompt);
    await terminal.type("go");
    await terminal.press("Enter");
    await terminal.waitFor("the answer", (s) => atPrompt(s) && /Done\./.test(s.text));
    assert.equal(await Deno.readTextFile(join(home.path, "hook-marker")), "ran\n");
    assert.match(await Deno.readTextFile(join(ws.path, ".rein", "events.jsonl")), /X=1/);
    await terminal.press("C-d");
  }
  const claudeJson = JSON.parse(await Deno.readTextFile(join(home.path, ".claude.json")));
  assert.equal(claudeJson.projects[ws.path].hasTrustDialogAccepted, true);
  await Deno.remove(join(home.path, "hook-marker"));
  {
    await using terminal = await start();
    const screen = await terminal.waitFor("the prompt", atPrompt);
    assert.doesNotMatch(screen.text, /Do you trust/);
    await terminal.type("go");
    await terminal.press("Enter");
    await terminal.waitFor("the answer", (s) => atPrompt(s) && /Done\./.test(s.text));
    assert.equal(await Deno.readTextFile(join(home.path, "hook-marker")), "ran\n");
    await terminal.press("C-d");
  }
});
