import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readMcpConfig } from "../core/mcp/read_mcp_config.ts";
import { planLaunch } from "../cli/_launch_plan.ts";
import { runCli } from "./_cli.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const LAUNCHER = join(ROOT, "cli", "launch.sh");
const DENO_DIR = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache/deno");

/** A temporary HOME and a project folder in it, removed on dispose. */
async function place() {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-mcp-cli-" }));
  const home = join(base, "home");
  const project = join(base, "project");
  await Deno.mkdir(home);
  await Deno.mkdir(project);
  return {
    home,
    project,
    claudeJson: join(home, ".claude.json"),
    mcpJson: join(project, ".mcp.json"),
    /** `rein ARGS` in the project, with this HOME. */
    rein: (args: string[]) => runCli(args, { env: { HOME: home, DENO_DIR }, cwd: project }),
    async [Symbol.asyncDispose]() {
      await Deno.remove(base, { recursive: true });
    },
  };
}

async function readJson(path: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(path));
}

Deno.test("rein mcp add writes each scope where Claude Code keeps it, and the client reads them back", async () => {
  await using p = await place();
  const local = await p.rein([
    "mcp",
    "add",
    "-e",
    "TOKEN=${MY_TOKEN}",
    "evr",
    "--",
    "npx",
    "-y",
    "srv",
    "--flag",
  ]);
  assert.equal(local.code, 0, local.stderr);
  assert.equal(
    local.stdout,
    `Added stdio MCP server evr with command: npx -y srv --flag to local config\n` +
      `File modified: ${p.claudeJson}\n`,
  );
  const project = await p.rein([
    "mcp",
    "add",
    "--scope",
    "project",
    "shared",
    "--",
    "node",
    "s.js",
  ]);
  assert.equal(project.code, 0, project.stderr);
  const user = await p.rein([
    "mcp",
    "add",
    "--transport",
    "http",
    "-s",
    "user",
    "-H",
    "Authorization: Bearer ${KEY:-none}",
    "remote",
    "https://example.com/mcp",
  ]);
  assert.equal(user.code, 0, user.stderr);
  const json = await p.rein([
    "mcp",
    "add-json",
    "-s",
    "project",
    "events",
    '{"type":"sse","url":"https://example.com/sse","timeout":5000}',
  ]);
  assert.equal(json.code, 0, json.stderr);

  const claude = await readJson(p.claudeJson);
  assert.deepEqual(claude, {
    projects: {
      [p.project]: {
        mcpServers: {
          evr: {
            type: "stdio",
            command: "npx",
            args: ["-y", "srv", "--flag"],
            env: { TOKEN: "${MY_TOKEN}" },
          },
        },
      },
    },
    mcpServers: {
      remote: {
        type: "http",
        url: "https://example.com/mcp",
        headers: { Authorization: "Bearer ${KEY:-none}" },
      },
    },
  });
  assert.deepEqual(await readJson(p.mcpJson), {
    mcpServers: {
      shared: { type: "stdio", command: "node", args: ["s.js"], env: {} },
      events: { type: "sse", url: "https://example.com/sse", timeout: 5000 },
    },
  });
  // core/mcp reads back exactly what was written, each in its scope.
  const setup = await readMcpConfig({
    workspace: p.project,
    claudeJson: p.claudeJson,
    mcpConfig: [],
    strict: false,
    trusted: true,
    disabled: [],
    env: (name) => (name === "MY_TOKEN" ? "t0k" : undefined),
    cwd: p.project,
  });
  assert.deepEqual(
    setup.servers.map(({ entry }) => [entry.name, entry.scope, entry.transport, entry.target]),
    [
      ["evr", "local", "stdio", "npx -y srv --flag"],
      ["shared", "project", "stdio", "node s.js"],
      ["events", "project", "sse", "https://example.com/sse"],
      ["remote", "user", "http", "https://example.com/mcp"],
    ],
  );
  assert.deepEqual(setup.problems, []);
});

Deno.test("rein mcp keeps every other key of ~/.claude.json byte for byte, in order, and its mode", async () => {
  await using p = await place();
  const original = {
    numStartups: 42,
    theme: "dark",
    projects: {
      "/somewhere/else": { allowedTools: [], hasTrustDialogAccepted: true },
      [p.project]: { allowedTools: ["Bash(ls)"], history: [{ display: "hi" }] },
    },
    oauthAccount: { emailAddress: "a@b.c" },
    tipsHistory: { "new-user-warmup": 1 },
  };
  await Deno.writeTextFile(p.claudeJson, JSON.stringify(original, null, 2), { mode: 0o640 });
  await Deno.chmod(p.claudeJson, 0o640);
  const added = await p.rein(["mcp", "add", "x", "--", "cmd"]);
  assert.equal(added.code, 0, added.stderr);
  const expected = structuredClone(original) as typeof original & Record<string, unknown>;
  Object.assign(expected.projects[p.project] as Record<string, unknown>, {
    mcpServers: { x: { type: "stdio", command: "cmd", args: [], env: {} } },
  });
  // Byte for byte: the same text Claude Code writes (two-space JSON, no final newline here),
  // the new key at the end of its project's entry, every other key where it was.
  assert.equal(await Deno.readTextFile(p.claudeJson), JSON.stringify(expected, null, 2));
  assert.equal((await Deno.stat(p.claudeJson)).mode! & 0o777, 0o640);
  const userAdded = await p.rein(["mcp", "add", "-s", "user", "u", "--", "ucmd", "a b"]);
  assert.equal(userAdded.code, 0, userAdded.stderr);
  const removed = await p.rein(["mcp", "remove", "x"]);
  assert.equal(removed.code, 0, removed.stderr);
  assert.equal(
    removed.stdout,
    `Removed MCP server x from local config\nFile modified: ${p.claudeJson}\n`,
  );
  Object.assign(expected.projects[p.project] as Record<string, unknown>, { mcpServers: {} });
  expected.mcpServers = { u: { type: "stdio", command: "ucmd", args: ["a b"], env: {} } };
  assert.equal(await Deno.readTextFile(p.claudeJson), JSON.stringify(expected, null, 2));
  assert.equal((await Deno.stat(p.claudeJson)).mode! & 0o777, 0o640);
  assert.equal(await Deno.stat(`${p.claudeJson}.rein.tmp`).then(() => true, () => false), false);
});

Deno.test("rein mcp refuses bad names, scopes, transports, values and duplicates in one line, writing nothing", async () => {
  await using p = await place();
  const text =
    `{\n    "mcpServers": {\n        "evr": {\n            "command": "x"\n        }\n    }\n}\n`;
  await Deno.writeTextFile(p.mcpJson, text);
  const cases: [string[], RegExp][] = [
    [
      ["mcp", "add", "dot.name", "--", "x"],
      /^rein: Invalid name "dot\.name": names can only contain letters, numbers, hyphens and underscores\n$/,
    ],
    [
      ["mcp", "add", "-s", "everywhere", "a", "--", "x"],
      /^rein: Invalid scope "everywhere": must be local, project or user\n$/,
    ],
    [
      ["mcp", "add", "-t", "ws", "a", "ws://h/x"],
      /^rein: Invalid transport "ws": must be stdio, http or sse\n$/,
    ],
    [
      ["mcp", "add", "-e", "NOEQUALS", "a", "--", "x"],
      /^rein: Invalid environment variable "NOEQUALS": write KEY=VALUE\n$/,
    ],
    [
      ["mcp", "add", "-t", "http", "-H", "nocolon", "a", "https://h/x"],
      /^rein: Invalid header "nocolon": write "Name: value"\n$/,
    ],
    [["mcp", "add", "-t", "http", "a", "not a url"], /^rein: Invalid URL "not a url"\n$/],
    [
      ["mcp", "add", "-s", "project", "evr", "--", "y"],
      /^rein: MCP server "evr" already exists in the project scope \(.*\.mcp\.json\)\n$/,
    ],
    [
      ["mcp", "add-json", "a", '{"command": 123}'],
      /^rein: Ignored MCP server "a" in "the JSON given": "command" must be a non-empty string\n$/,
    ],
    [["mcp", "add-json", "a", "{nope"], /^rein: Invalid JSON for MCP server "a": /],
    [["mcp", "remove", "ghost"], /^rein: No MCP server named "ghost" in any scope for /],
    [["mcp", "remove", "-s", "user", "evr"], /^rein: No MCP server named "evr" in the user scope /],
    [["mcp", "get", "ghost"], /^rein: No MCP server named "ghost" for /],
  ];
  for (const [args, error] of cases) {
    const result = await p.rein(args);
    assert.equal(result.code, 1, args.join(" "));
    assert.match(result.stderr, error, args.join(" "));
    assert.equal(result.stderr.trimEnd().split("\n").length, 1, result.stderr);
  }
  assert.equal(await Deno.readTextFile(p.mcpJson), text, ".mcp.json changed");
  assert.equal(await Deno.stat(p.claudeJson).then(() => true, () => false), false);
  // A name in two scopes is removed only with --scope; .mcp.json keeps its four-space indent.
  assert.equal((await p.rein(["mcp", "add", "evr", "--", "local-x"])).code, 0);
  const ambiguous = await p.rein(["mcp", "remove", "evr"]);
  assert.match(
    ambiguous.stderr,
    /^rein: MCP server "evr" is in several scopes \(local, project\): say which with --scope\n$/,
  );
  assert.equal((await p.rein(["mcp", "remove", "evr", "-s", "project"])).code, 0);
  assert.equal(await Deno.readTextFile(p.mcpJson), `{\n    "mcpServers": {}\n}\n`);
});

Deno.test("rein mcp list and get show scope, command or URL and whether a session here starts it, starting nothing", async () => {
  await using p = await place();
  const empty = await p.rein(["mcp", "list"]);
  assert.equal(empty.code, 0, empty.stderr);
  assert.match(empty.stdout, /^No MCP servers configured/);
  const marker = join(p.project, "started");
  await Deno.writeTextFile(
    p.mcpJson,
    JSON.stringify({
      mcpServers: {
        repo: { command: "sh", args: ["-c", `touch ${marker}`] },
        both: { command: "project-version" },
      },
    }),
  );
  assert.equal((await p.rein(["mcp", "add", "both", "--", "local-version"])).code, 0);
  assert.equal(
    (await p.rein(["mcp", "add", "-s", "user", "-t", "sse", "feed", "https://example.com/sse"]))
      .code,
    0,
  );
  const list = await p.rein(["mcp", "list"]);
  assert.equal(list.code, 0, list.stderr);
  assert.equal(
    list.stdout,
    "both: local-version (local) - enabled\n" +
      `repo: sh -c touch ${marker} (project) - not started: the folder is not trusted (rein trust)\n` +
      "feed: https://example.com/sse (sse) (user) - enabled\n",
  );
  assert.equal((await p.rein(["trust"])).code, 0);
  const trusted = await p.rein(["mcp", "list"]);
  assert.match(
    trusted.stdout,
    /^repo: .* \(project\) - enabled \(project server, folder trusted\)$/m,
  );
  const get = await p.rein(["mcp", "get", "both"]);
  assert.equal(get.code, 0, get.stderr);
  assert.equal(
    get.stdout,
    [
      "both:",
      "  Scope: Local config (private to you in this project)",
      `  File: ${p.claudeJson}`,
      "  Status: enabled",
      "  Type: stdio",
      "  Command: local-version",
      "  Args: ",
      "  Also defined in: project (not used: local wins)",
      "",
      'To remove this server, run: rein mcp remove "both" --scope local',
      "",
    ].join("\n"),
  );
  const feed = await p.rein(["mcp", "get", "feed"]);
  assert.ok(feed.stdout.includes("  Type: sse\n  URL: https://example.com/sse\n"), feed.stdout);
  assert.equal(await Deno.stat(marker).then(() => true, () => false), false, "a server started");
});

Deno.test("rein mcp through the launcher: writes under flags that allow only its two files", async () => {
  await using p = await place();
  const env = {
    HOME: p.home,
    DENO_DIR,
    PATH: Deno.env.get("PATH") ?? "",
    REIN_DENO: Deno.execPath(),
  };
  for (
    const argv of [
      ["--show-permissions", "mcp", "list"],
      ["--show-permissions", "mcp", "add", "a", "--", "x"],
      ["--show-permissions", "mcp", "serve", "--log", "../l/e.jsonl"],
      ["--entry", "dist/rein.js", "--show-permissions", "mcp", "serve"],
    ]
  ) {
    const shown = new Deno.Command("sh", {
      args: [LAUNCHER, ...argv],
      env,
      clearEnv: true,
      cwd: p.project,
    }).outputSync();
    const expected = planLaunch({
      argv,
      env,
      cwd: p.project,
      root: ROOT,
      realPath: (path) => {
        try {
          return Deno.realPathSync(path);
        } catch {
          return undefined;
        }
      },
    }).permissions;
    assert.deepEqual(new TextDecoder().decode(shown.stdout).trim().split("\n"), expected);
  }
  const listed = new Deno.Command("sh", {
    args: [LAUNCHER, "--show-permissions", "mcp", "remove", "a"],
    env,
    clearEnv: true,
    cwd: p.project,
  }).outputSync();
  assert.deepEqual(new TextDecoder().decode(listed.stdout).trim().split("\n"), [
    "--allow-read",
    `--allow-write=${p.mcpJson},${p.mcpJson}.rein.tmp,${p.claudeJson},${p.claudeJson}.rein.tmp`,
    "--allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,CLAUDE_CONFIG_DIR",
    "--no-prompt",
  ]);
  const run = (args: string[]) =>
    new Deno.Command("sh", { args: [LAUNCHER, ...args], env, clearEnv: true, cwd: p.project })
      .outputSync();
  const added = run(["mcp", "add", "-s", "project", "a", "--", "x", "--y"]);
  assert.equal(added.code, 0, new TextDecoder().decode(added.stderr));
  const addedUser = run(["mcp", "add", "-s", "user", "b", "--", "z"]);
  assert.equal(addedUser.code, 0, new TextDecoder().decode(addedUser.stderr));
  assert.deepEqual(await readJson(p.mcpJson), {
    mcpServers: { a: { type: "stdio", command: "x", args: ["--y"], env: {} } },
  });
  assert.deepEqual(await readJson(p.claudeJson), {
    mcpServers: { b: { type: "stdio", command: "z", args: [], env: {} } },
  });
});
