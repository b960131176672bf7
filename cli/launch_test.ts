import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { parentOf, parseLaunchArgs, resolvePath } from "./_launch_args.ts";
import { agentPermissions, modelHost } from "./_launch_flags.ts";
import { planLaunch } from "./_launch_plan.ts";
import { defaultLogPath, resolveWorkspace, userPath } from "./paths.ts";

const ENV = {
  HOME: "/home/ada",
  PATH: "/usr/bin:/bin",
  LANG: "C.UTF-8",
  ANTHROPIC_API_KEY: "sk-ant-test",
  ANTHROPIC_LOG: "debug",
  REIN_MAX_RETRIES: "2",
  GITHUB_TOKEN: "ghp_0123456789abcdef",
  CLAUDE_CODE_MAX_RETRIES: "3",
  CLAUDE_CODE_USE_BEDROCK: "1",
};

Deno.test("the agent reads and writes its paths, reads the others, and reaches only the model host", () => {
  const { flags, notices } = agentPermissions({
    readWrite: ["/work/app", "/tmp"],
    read: ["/home/ada/.claude"],
    baseUrl: "http://127.0.0.1:8080",
    env: ENV,
  });
  assert.deepEqual(flags, [
    "--allow-read=/work/app,/tmp,/home/ada/.claude",
    "--allow-write=/work/app,/tmp",
    "--allow-net=127.0.0.1:8080",
    "--allow-env",
    "--allow-run=bash,bwrap,setpriv,setsid,rg,git",
    "--no-prompt",
  ]);
  assert.deepEqual(notices, []);
});

Deno.test("the model host is the endpoint's host, with its port only when the URL gives one", () => {
  assert.equal(modelHost(undefined), "api.anthropic.com");
  assert.equal(modelHost(""), "api.anthropic.com");
  assert.equal(modelHost("http://127.0.0.1:8080"), "127.0.0.1:8080");
  assert.equal(modelHost("https://gateway.corp.example/anthropic/"), "gateway.corp.example");
  assert.equal(modelHost("https://gateway.corp.example:443"), "gateway.corp.example");
  assert.equal(modelHost("http://[::1]:9000"), "[::1]:9000");
  assert.equal(modelHost("not a url"), undefined);
});

Deno.test("an endpoint that does not parse gets no net access at all", () => {
  const { flags } = agentPermissions({ readWrite: ["/w"], read: [], baseUrl: "::", env: {} });
  assert.ok(!flags.some((flag) => flag.startsWith("--allow-net")), flags.join(" "));
});

Deno.test("a loader variable lifts the run restriction, and says so", () => {
  const { flags, notices } = agentPermissions({
    readWrite: ["/w"],
    read: [],
    baseUrl: undefined,
    env: { LD_LIBRARY_PATH: "/opt/lib" },
  });
  assert.ok(flags.includes("--allow-run"), flags.join(" "));
  assert.match(notices[0] ?? "", /LD_LIBRARY_PATH is set.*unrestricted --allow-run/);
});

Deno.test("a path with a comma is refused: a Deno flag list cannot name it", () => {
  assert.throws(
    () => agentPermissions({ readWrite: ["/work/a,b"], read: [], baseUrl: undefined, env: {} }),
    /Cannot confine the agent: a Deno permission flag cannot name a path with a comma: "\/work\/a,b"/,
  );
});

Deno.test("the launcher reads --workspace and --log as commander does, and keeps its own flags", () => {
  assert.deepEqual(
    parseLaunchArgs(["--entry", "dist/rein.js", "-p", "hi", "--workspace", "a", "--workspace=b"]),
    {
      entry: "dist/rein.js",
      readOnly: false,
      salvage: false,
      logArgument: undefined,
      trust: false,
      view: false,
      viewOpen: false,
      mcpServe: false,
      mcpEdit: false,
      teammate: false,
      showPermissions: false,
      workspace: "b",
      log: undefined,
      settings: undefined,
      pluginDirs: [],
      mcpConfigs: [],
      strictMcp: false,
      trustFlag: false,
      args: ["-p", "hi", "--workspace", "a", "--workspace=b"],
    },
  );
  assert.equal(parseLaunchArgs(["-p", "x", "--settings", "strict.json"]).settings, "strict.json");
  const shown = parseLaunchArgs(["agent", "--show-permissions", "--log", "l.jsonl"]);
  assert.equal(shown.showPermissions, true);
  assert.equal(shown.log, "l.jsonl");
  assert.deepEqual(shown.args, ["agent", "--log", "l.jsonl"]);
  const afterDashes = parseLaunchArgs(["-p", "--", "--workspace", "x", "--show-permissions"]);
  assert.equal(afterDashes.workspace, undefined);
  assert.equal(afterDashes.showPermissions, false);
  const readOnly = [
    ["state"],
    ["replay", "x.jsonl"],
    ["sessions"],
    ["tasks", "--json"],
    ["--help"],
    ["-V"],
    ["log", "check", "/elsewhere/events.jsonl"],
    ["log", "stats", "--log", "x.jsonl"],
    ["log"],
  ];
  for (const args of readOnly) {
    assert.equal(parseLaunchArgs(args).readOnly, true, args.join(" "));
  }
  for (const args of [[], ["agent"], ["fix the state of the tests"], ["-p", "state"]]) {
    assert.equal(parseLaunchArgs(args).readOnly, false, args.join(" "));
  }
});

Deno.test("log salvage may write only its log's directory; log check and stats only read", () => {
  const salvage = (argv: string[]) => parseLaunchArgs(argv);
  assert.deepEqual(
    [salvage(["log", "salvage", "a.jsonl"]), salvage(["log", "salvage", "--log", "b.jsonl"])]
      .map(({ readOnly, salvage, logArgument, log }) => ({ readOnly, salvage, logArgument, log })),
    [
      { readOnly: false, salvage: true, logArgument: "a.jsonl", log: undefined },
      { readOnly: false, salvage: true, logArgument: undefined, log: "b.jsonl" },
    ],
  );
  assert.equal(
    salvage(["log", "salvage", "--workspace", "w", "--", "c.jsonl"]).logArgument,
    "c.jsonl",
  );
  const context = {
    env: { REIN_CALLER_DIR: "/u" },
    cwd: "/w",
    root: "/rein",
    realPath: () => undefined,
  };
  const cases: [string[], string][] = [
    [["log", "salvage", "/logs/a/events.jsonl", "--log", "x.jsonl"], "/logs/a"],
    [["log", "salvage", "--log", "../x/events.jsonl"], "/x"],
    [["log", "salvage", "--workspace", "project"], "/u/project/.rein"],
    [["log", "salvage"], "/u/.rein"],
  ];
  for (const [argv, dir] of cases) {
    assert.deepEqual(planLaunch({ ...context, argv }).permissions, [
      "--allow-read",
      `--allow-write=${dir}`,
      "--allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME",
      "--no-prompt",
    ], argv.join(" "));
  }
  for (const argv of [["log", "check", "/logs/a/events.jsonl"], ["log", "stats"]]) {
    assert.deepEqual(planLaunch({ ...context, argv }).permissions, [
      "--allow-read",
      "--allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME",
      "--no-prompt",
    ]);
  }
});

Deno.test("rein trust reads anything and writes only ~/.claude.json and the file renamed over it", () => {
  const context = { cwd: "/w", root: "/rein", realPath: () => undefined, argv: ["trust", "/x"] };
  const expected = (dir: string) => [
    "--allow-read",
    `--allow-write=${dir}/.claude.json,${dir}/.claude.json.rein.tmp`,
    "--allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,CLAUDE_CONFIG_DIR",
    "--no-prompt",
  ];
  assert.deepEqual(planLaunch({ ...context, env: { HOME: "/h" } }).permissions, expected("/h"));
  assert.deepEqual(
    planLaunch({ ...context, env: { HOME: "/h", CLAUDE_CONFIG_DIR: "/cfg" } }).permissions,
    expected("/cfg"),
  );
});

Deno.test("resolvePath agrees with node:path resolve", () => {
  const segment = fc.constantFrom("a", "b", ".", "..", "", "c d");
  const path = fc.array(segment, { maxLength: 6 }).map((parts) => parts.join("/"));
  fc.assert(fc.property(path, path, fc.boolean(), (base, rel, absolute) => {
    const dir = resolve("/", base);
    const given = absolute ? `/${rel}` : rel;
    assert.equal(resolvePath(dir, given), resolve(dir, given));
    assert.equal(parentOf(resolve(dir, given)), resolve(dir, given, ".."));
  }));
});

Deno.test("the workspace and log the launcher allows are the ones cli/paths.ts resolves", async () => {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-launch-" }));
  try {
    await Deno.mkdir(join(base, "real", "project"), { recursive: true });
    await Deno.symlink(join(base, "real"), join(base, "link"));
    const cases = [
      { caller: join(base, "link"), workspace: "project", log: "logs/run.jsonl" },
      { caller: base, workspace: "link/project/../project", log: undefined },
      { caller: join(base, "real", "project"), workspace: undefined, log: "../x.jsonl" },
    ];
    for (const { caller, workspace, log } of cases) {
      const env = { REIN_CALLER_DIR: caller, HOME: base, TMPDIR: base };
      const argv = [
        "-p",
        "hi",
        ...(workspace ? ["--workspace", workspace] : []),
        ...(log ? ["--log", log] : []),
      ];
      const plan = planLaunch({ argv, env, cwd: "/", root: "/rein", realPath });
      const allowed = (plan.permissions.find((f) => f.startsWith("--allow-write=")) ?? "")
        .slice("--allow-write=".length).split(",");
      const runtimeEnv = {
        get: (name: string) => env[name as keyof typeof env],
        toObject: () => env,
      };
      const resolved = resolveWorkspace(workspace, runtimeEnv, "/");
      const logPath = log ? userPath(log, runtimeEnv, "/") : defaultLogPath(resolved);
      assert.ok(allowed.includes(resolved), `${resolved} not in ${allowed}`);
      assert.ok(
        allowed.some((dir) => logPath.startsWith(`${dir}/`)),
        `${logPath} not in ${allowed}`,
      );
    }
  } finally {
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("a launch starts cli/main.ts with the root's config, or an --entry without one", () => {
  const context = { env: { HOME: "/h" }, cwd: "/w", root: "/rein", realPath: () => undefined };
  const source = planLaunch({ ...context, argv: ["-p", "hi"] });
  assert.deepEqual(source.denoArgs, [
    "run",
    "--quiet",
    "--v8-flags=--max-semi-space-size=1",
    "--config",
    "/rein/deno.json",
    ...source.permissions,
    "/rein/cli/main.ts",
    "-p",
    "hi",
  ]);
  assert.deepEqual(source.permissions.slice(0, 2), [
    "--allow-read=/w,/tmp,/h/.local/state/rein,/h/.cache/rein/plugins,/h/.claude.json," +
    "/h/.claude.json.rein.tmp,/h/.claude,/rein/skills",
    "--allow-write=/w,/tmp,/h/.local/state/rein,/h/.cache/rein/plugins,/h/.claude.json," +
    "/h/.claude.json.rein.tmp",
  ]);
  const bundle = planLaunch({ ...context, argv: ["--entry", "dist/rein.js", "state"] });
  assert.deepEqual(bundle.denoArgs, [
    "run",
    "--quiet",
    "--v8-flags=--max-semi-space-size=8",
    "--no-config",
    "--allow-read",
    "--allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME",
    "--no-prompt",
    "/rein/dist/rein.js",
    "state",
  ]);
});

Deno.test("a teammate's process compiles no further than the baseline; other agents as before", () => {
  const context = { env: { HOME: "/h" }, cwd: "/w", root: "/rein", realPath: () => undefined };
  const v8 = (argv: string[]) =>
    planLaunch({ ...context, argv }).denoArgs.filter((arg) => arg.startsWith("--v8-flags="));
  const teammate = ["teammate", "--session", "s1", "--agent", "alice", "--workspace", "/w"];
  assert.deepEqual(v8(teammate), ["--v8-flags=--max-semi-space-size=1,--max-opt=1"]);
  assert.deepEqual(v8(["--entry", "dist/rein.js", ...teammate]), [
    "--v8-flags=--max-semi-space-size=1,--max-opt=1",
  ]);
  // The lead, and an agent whose prompt is the word "teammate", keep the agent's flags.
  assert.deepEqual(v8(["-p", "teammate"]), ["--v8-flags=--max-semi-space-size=1"]);
  assert.deepEqual(v8(["agent"]), ["--v8-flags=--max-semi-space-size=1"]);
});

function realPath(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}
