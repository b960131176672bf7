/**
 * The shell launcher (cli/launch.sh) computes the same flags as the launch plan it stands in for
 * (cli/_launch_plan.ts), and execs Deno: no launcher process stays behind.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { planLaunch } from "../cli/_launch_plan.ts";
import { message, startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { childEnv } from "./_cli.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const LAUNCHER = join(ROOT, "cli", "launch.sh");

function realPath(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

/** `argv` with --show-permissions among its options (after a leading --entry PATH). */
function showing(argv: string[]): string[] {
  const at = argv[0] === "--entry" ? 2 : 0;
  return [...argv.slice(0, at), "--show-permissions", ...argv.slice(at)];
}

async function shellFlags(argv: string[], env: Record<string, string>, cwd: string) {
  const out = await new Deno.Command("sh", {
    args: [LAUNCHER, ...showing(argv)],
    env: { PATH: Deno.env.get("PATH") ?? "", REIN_DENO: Deno.execPath(), ...env },
    clearEnv: true,
    cwd,
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr);
  return new TextDecoder().decode(out.stdout).trimEnd().split("\n");
}

Deno.test("the shell launcher computes the flags the launch plan does", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-launch-sh-" }));
  try {
    await Deno.mkdir(join(base, "my project/sub"), { recursive: true });
    await Deno.mkdir(join(base, "home/.claude"), { recursive: true });
    await Deno.mkdir(join(base, "tmp"));
    await Deno.symlink(join(base, "my project"), join(base, "linked"));
    await Deno.writeTextFile(join(base, "my project/strict.json"), "{}");
    // "my project" is a repository: a workspace below it may read its CLAUDE.md and HEAD.
    await Deno.mkdir(join(base, "my project/.git"));
    const home = join(base, "home");
    // Claude Code's ~/.claude.json as a link to a file elsewhere, and as a file in a linked home.
    await Deno.writeTextFile(join(base, "my project/claude.json"), "{}");
    await Deno.symlink(join(base, "my project/claude.json"), join(home, ".claude.json"));
    await Deno.mkdir(join(base, "real-home"));
    await Deno.writeTextFile(join(base, "real-home/.claude.json"), "{}");
    await Deno.symlink(join(base, "real-home"), join(base, "linked-home"));
    const cases: [string[], Record<string, string>][] = [
      [["agent"], { HOME: home }],
      [["-p", "hi", "--workspace", "sub"], { HOME: home, TMPDIR: join(base, "tmp") }],
      [["--workspace=../linked", "--log", "logs/x.jsonl"], { HOME: home }],
      [["--settings", "strict.json"], { HOME: home, REIN_CALLER_DIR: join(base, "linked") }],
      [["agent"], { HOME: home, ANTHROPIC_BASE_URL: "http://127.0.0.1:8080/v1" }],
      [["agent"], { HOME: home, ANTHROPIC_BASE_URL: "https://proxy.example.com:443" }],
      [["agent"], { HOME: home, ANTHROPIC_BASE_URL: "http://localhost" }],
      [["agent"], { HOME: "relative", ANTHROPIC_BASE_URL: "" }],
      [["--entry", "dist/rein.js", "-p", "x", "--", "--workspace", "nope"], { HOME: home }],
      [["state"], { HOME: home }],
      [["replay", "--workspace", "sub"], { HOME: home }],
      [["log", "check", join(base, "elsewhere", "events.jsonl")], { HOME: home }],
      [["log", "stats", "--log", "../x.jsonl"], { HOME: home }],
      [["log", "salvage", "logs/x.jsonl", "--log", "y.jsonl"], { HOME: home }],
      [["log", "salvage", "--log", "../linked/y.jsonl"], { HOME: home }],
      [["log", "salvage", "--workspace", "sub"], { REIN_CALLER_DIR: join(base, "linked") }],
      [["log", "salvage", "--", "/z.jsonl"], {}],
      [["log", "salvage"], {}],
      [["trust", "sub"], { HOME: home }],
      [["trust", "--list"], { HOME: home, CLAUDE_CONFIG_DIR: join(base, "linked") }],
      [["agent"], { HOME: home, CLAUDE_CONFIG_DIR: join(base, "linked") }],
      [["agent"], { HOME: home, XDG_CACHE_HOME: join(base, "cache") }],
      [["agent"], { HOME: home, XDG_CACHE_HOME: "relative" }],
      [["--version"], {}],
      [["agent"], { HOME: join(base, "linked-home") }],
      [["trust", "sub"], { HOME: join(base, "linked-home") }],
    ];
    const cwd = join(base, "my project");
    for (const [argv, env] of cases) {
      const expected = planLaunch({ argv, env, cwd, root: ROOT, realPath }).permissions;
      assert.deepEqual(await shellFlags(argv, env, cwd), expected, JSON.stringify({ argv, env }));
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("the shell launcher hands what it does not handle itself to cli/launch.ts", async () => {
  const cwd = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-launch-sh-" }));
  try {
    for (
      const env of [
        { LD_PRELOAD: "" },
        { ANTHROPIC_BASE_URL: "http://user:pw@example.com" },
        { ANTHROPIC_BASE_URL: "http://[::1]:8080" },
      ]
    ) {
      const expected = planLaunch({ argv: ["agent"], env, cwd, root: ROOT, realPath });
      assert.deepEqual(await shellFlags(["agent"], env, cwd), expected.permissions);
    }
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("the shell launcher execs rein: the process it started is rein itself", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-launch-sh-" }));
  try {
    const entry = join(base, "fixture.js");
    await Deno.writeTextFile(entry, "console.log(Deno.pid); Deno.exit(7);\n");
    const child = new Deno.Command("sh", {
      args: [LAUNCHER, "--entry", entry, "--workspace", base],
      env: { PATH: Deno.env.get("PATH") ?? "", HOME: base, REIN_DENO: Deno.execPath() },
      clearEnv: true,
      stdout: "piped",
    }).spawn();
    const { code, stdout } = await child.output();
    assert.equal(code, 7);
    assert.equal(Number(new TextDecoder().decode(stdout).trim()), child.pid);
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("the shell launcher passes the caller's PWD and OLDPWD to rein unchanged, from a linked folder too", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-launch-sh-" }));
  try {
    const entry = join(base, "fixture.js");
    await Deno.writeTextFile(
      entry,
      "console.log(JSON.stringify([Deno.env.get('PWD'), Deno.env.get('OLDPWD') ?? null, Deno.cwd()]));\n",
    );
    await Deno.mkdir(join(base, "real"));
    await Deno.symlink(join(base, "real"), join(base, "link"));
    const linked = join(base, "link");
    for (const oldpwd of [undefined, "/somewhere/else"]) {
      const out = await new Deno.Command("sh", {
        args: [LAUNCHER, "--entry", entry, "--workspace", linked],
        env: {
          PATH: Deno.env.get("PATH") ?? "",
          HOME: linked,
          REIN_DENO: Deno.execPath(),
          PWD: linked,
          ...oldpwd === undefined ? {} : { OLDPWD: oldpwd },
        },
        clearEnv: true,
        cwd: linked,
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      const [pwd, old, cwd] = JSON.parse(new TextDecoder().decode(out.stdout));
      assert.deepEqual([pwd, old, cwd], [linked, oldpwd ?? null, join(base, "real")]);
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("the shell launcher refuses a path with a comma as cli/launch.ts words it", async () => {
  const cwd = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-launch-sh-" }));
  try {
    for (const argv of [["--workspace", "/tmp/a,b"], ["log", "salvage", "/tmp/a,b/x.jsonl"]]) {
      const out = await new Deno.Command("sh", {
        args: [LAUNCHER, ...argv],
        env: { PATH: Deno.env.get("PATH") ?? "", REIN_DENO: Deno.execPath() },
        clearEnv: true,
        cwd,
      }).output();
      assert.equal(out.code, 1, argv.join(" "));
      assert.match(
        new TextDecoder().decode(out.stderr),
        /^rein: .* cannot name a path with a comma: "\/tmp\/a,b"\n$/,
      );
    }
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("the shell launcher starts Deno with the arguments the launch plan does", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-launch-sh-" }));
  try {
    // A stand-in for Deno that prints the arguments it was started with.
    const deno = join(base, "deno");
    await Deno.writeTextFile(deno, "#!/bin/sh\nprintf '%s\\n' \"$@\"\n");
    await Deno.chmod(deno, 0o755);
    const env = { HOME: base, TMPDIR: base };
    for (
      const argv of [
        ["-p", "hi"],
        ["state", "x.jsonl", "--at", "3"],
        ["log", "stats"],
        ["log", "salvage", "x.jsonl"],
        ["trust"],
        ["--entry", "dist/rein.js", "replay", "--verify"],
        ["--entry", "dist/rein.js", "teammate", "--session", "s1", "--agent", "alice"],
      ]
    ) {
      const out = await new Deno.Command("sh", {
        args: [LAUNCHER, ...argv],
        env: { PATH: Deno.env.get("PATH") ?? "", REIN_DENO: deno, ...env },
        clearEnv: true,
        cwd: base,
      }).output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      const plan = planLaunch({ argv, env, cwd: base, root: ROOT, realPath }).denoArgs;
      const at = plan.indexOf("--config");
      const expected = at < 0
        ? plan
        : [...plan.slice(0, at), `--config=${plan[at + 1]}`, ...plan.slice(at + 2)];
      const args = new TextDecoder().decode(out.stdout).trimEnd().split("\n");
      assert.deepEqual(args, expected, argv.join(" "));
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("`deno task agent` run by a Deno that is not on the PATH uses that Deno", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-launch-sh-" }));
  await using fake = await startFakeAnthropic({ script: [message("from the task")] });
  try {
    // A PATH with every program of /usr/bin but Deno, and Deno at a path of its own.
    const bin = join(base, "bin");
    await Deno.mkdir(bin);
    for await (const entry of Deno.readDir("/usr/bin")) {
      if (entry.name !== "deno") {
        await Deno.symlink(join("/usr/bin", entry.name), join(bin, entry.name));
      }
    }
    const deno = join(base, "opt", "deno");
    await Deno.mkdir(deno, { recursive: true });
    await Deno.symlink(Deno.execPath(), join(deno, "deno"));
    const workspace = join(base, "work");
    await Deno.mkdir(workspace);
    const out = await new Deno.Command(join(deno, "deno"), {
      args: ["task", "-q", "agent", "-p", "hello", "--workspace", workspace],
      cwd: ROOT,
      env: {
        ...childEnv({ ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test-launcher-key" }),
        PATH: bin,
        HOME: base,
        // Deno's cache stays where it is (the home is a temp one): nothing is fetched again.
        DENO_DIR: Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache/deno"),
      },
      clearEnv: true,
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.doesNotMatch(stderr, /Cannot find Deno/);
    assert.equal(out.code, 0, stderr);
    assert.equal(new TextDecoder().decode(out.stdout).trim(), "from the task");
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});
