import assert from "node:assert/strict";
import { buildProgram, plainAgentFlags, teammateArgs } from "./main.ts";

/** What commander makes of `args` for the agent command, or undefined when it is not one. */
async function commanderFlags(args: string[]): Promise<unknown> {
  const sink = { write: () => {} };
  const io = { stdout: sink, stderr: sink } as unknown as Parameters<typeof buildProgram>[0];
  const program = await buildProgram(io, { get: () => undefined, toObject: () => ({}) }, () => {});
  let flags: unknown;
  program.commands.find((c) => c.name() === "agent")?.action((...args: unknown[]) => {
    flags = { ...(args.at(-2) as Record<string, unknown>) };
  });
  program.exitOverride();
  for (const command of program.commands) command.exitOverride();
  try {
    await program.parseAsync(args, { from: "user" });
  } catch {
    return undefined;
  }
  return flags;
}

const CASES = [
  [],
  ["agent"],
  ["-p", "fix the test"],
  ["agent", "-p", "fix it", "--output-format", "stream-json"],
  ["--print", "hi", "--model", "claude-x", "--max-turns", "3"],
  ["-p", "--output-format", "json"],
  ["-p"],
  ["-c"],
  ["--continue", "-p", "go on"],
  ["--resume", "3f0c", "--workspace", "../other", "--log", "/tmp/l.jsonl"],
  ["--fork", "3f0c@12", "-p", "try again"],
  ["-p", "x", "--max-turns", "0"],
  ["-p", "x", "--output-format", "yaml"],
  ["-p", "-5"],
  [
    "-p",
    "go",
    "--mcp-config",
    '{"mcpServers":{}}',
    "--mcp-config",
    "m.json",
    "--strict-mcp-config",
  ],
  ["--strict-mcp-config", "-p", "x"],
  ["--unknown"],
  ["sessions"],
  ["replay", "log.jsonl"],
];

Deno.test("the fast path reads a plain agent call exactly as commander does, or leaves it to commander", async () => {
  for (const args of CASES) {
    const fast = plainAgentFlags(args);
    if (fast === undefined) continue;
    assert.deepEqual(fast, await commanderFlags(args), `args: ${JSON.stringify(args)}`);
  }
  assert.equal(plainAgentFlags(["sessions"]), undefined);
  assert.equal(plainAgentFlags(["-p", "x", "--max-turns", "0"]), undefined);
  assert.equal(plainAgentFlags(["--unknown"]), undefined);
  // MCP servers (the Agent SDK gives its servers so) keep the fast path.
  assert.deepEqual(plainAgentFlags(["-p", "go", "--mcp-config", "a.json", "--strict-mcp-config"]), {
    outputFormat: "text",
    print: "go",
    mcpConfig: ["a.json"],
    strictMcpConfig: true,
  });
});

/** What commander makes of `args` for the teammate command, or undefined when it is not one. */
async function commanderTeammate(args: string[]): Promise<unknown> {
  const sink = { write: () => {} };
  const io = { stdout: sink, stderr: sink } as unknown as Parameters<typeof buildProgram>[0];
  const program = await buildProgram(io, { get: () => undefined, toObject: () => ({}) }, () => {});
  let flags: unknown;
  program.commands.find((c) => c.name() === "teammate")?.action((...args: unknown[]) => {
    flags = { ...(args.at(-2) as Record<string, unknown>) };
  });
  program.exitOverride();
  for (const command of program.commands) command.exitOverride();
  try {
    await program.parseAsync(args, { from: "user" });
  } catch {
    return undefined;
  }
  return flags;
}

Deno.test("the teammate's fast path reads what the lead starts it with exactly as commander does, or leaves it to commander", async () => {
  const started = [
    "teammate",
    "--session",
    "s1",
    "--agent",
    "alice",
    "--workspace",
    "/w",
    "--log",
    "/w/.rein/events.jsonl",
  ];
  assert.deepEqual(teammateArgs(started), {
    session: "s1",
    agent: "alice",
    workspace: "/w",
    log: "/w/.rein/events.jsonl",
  });
  // The lead's MCP configuration (cli/teammate_processes.ts) follows the pairs.
  const withMcp = [...started, "--mcp-config", '{"mcpServers":{}}', "--mcp-config", "/m.json"];
  assert.deepEqual(teammateArgs([...withMcp, "--strict-mcp-config", "--trust"]), {
    session: "s1",
    agent: "alice",
    workspace: "/w",
    log: "/w/.rein/events.jsonl",
    mcpConfig: ['{"mcpServers":{}}', "/m.json"],
    strictMcpConfig: true,
    trust: true,
  });
  const cases = [
    started,
    withMcp,
    [...withMcp, "--strict-mcp-config"],
    [...withMcp, "--strict-mcp-config", "--trust"],
    [...started, "--trust"],
    ["teammate", "--agent", "bob", "--session", "s2"],
    ["teammate", "--session", "s1"],
    ["teammate", "--session", "s1", "--agent", "a", "--agent", "b"],
    ["teammate", "--session", "s1", "--agent", "a", "--model", "x"],
    ["teammate", "--session", "--agent", "a"],
    ["teammate", "--session", "s1", "--agent"],
    ["teammates"],
    ["-p", "teammate"],
  ];
  for (const args of cases) {
    const fast = teammateArgs(args);
    if (fast === undefined) continue;
    assert.deepEqual(fast, await commanderTeammate(args), `args: ${JSON.stringify(args)}`);
  }
  assert.equal(teammateArgs(["teammate", "--session", "s1"]), undefined);
  assert.equal(
    teammateArgs(["teammate", "--session", "s1", "--agent", "a", "--model", "x"]),
    undefined,
  );
  assert.equal(teammateArgs(["-p", "teammate"]), undefined);
});
