/**
 * Claude Code's reading of Bash rules, end to end in a headless `rein -p`: a bare `ask: ["Bash"]`
 * still lets read-only commands run (and asks, so denies headless, the others); the read-only
 * set holds `rg`, `find`, `sort` but not their writing forms; and `Bash(npm test :*)` (a space
 * before the legacy `:*`) allows nothing, as in Claude Code, while as a deny rule it still denies,
 * with one warning saying so.
 */
import assert from "node:assert/strict";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { toolResultCount } from "../testing/scenarios.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

type LogLine = Awaited<ReturnType<typeof readLogLines>>[number];

/** Runs `commands` one by one under the settings `permissions`; the log and stderr. */
async function headless(
  workspace: string,
  permissions: Record<string, string[]>,
  commands: readonly string[],
): Promise<{ log: LogLine[]; stderr: string }> {
  const { outputStyle, ...lists } = permissions;
  await Deno.writeTextFile(
    `${workspace}/mine.json`,
    JSON.stringify({ permissions: lists, ...(outputStyle ? { outputStyle: "Explanatory" } : {}) }),
  );
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const n = toolResultCount(request.body);
      const command = commands[n];
      return command === undefined
        ? message("Done.")
        : message([toolUse(`toolu_${n}`, "bash", { command })]);
    },
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-test" };
  const run = await runCli(
    ["-p", "go", "--settings", `${workspace}/mine.json`, "--workspace", workspace],
    { env },
  );
  assert.equal(run.code, 0, run.stderr);
  return { log: await readLogLines(`${workspace}/.rein/events.jsonl`), stderr: run.stderr };
}

function decided(log: readonly LogLine[], callId: string): string {
  const found = log.find((e) => e.type === "permission.decided" && e.data.callId === callId);
  return String(found?.data.decision ?? "allow");
}

Deno.test('ask: ["Bash"] still runs read-only commands headless, and asks (denied headless) about the others', async () => {
  await using ws = await tempWorkspace();
  await Deno.writeTextFile(`${ws.path}/b.txt`, "b\na\n");
  const { log, stderr } = await headless(ws.path, { ask: ["Bash"] }, [
    "ls",
    "sort b.txt",
    "rg -n a b.txt",
    "find . -name '*.txt'",
    "touch made.txt",
    "sort -o b.txt b.txt",
    "find . -name b.txt -delete",
  ]);
  for (const id of ["toolu_0", "toolu_1", "toolu_2", "toolu_3"]) {
    assert.equal(decided(log, id), "allow", id);
  }
  for (const id of ["toolu_4", "toolu_5", "toolu_6"]) assert.equal(decided(log, id), "deny", id);
  await assert.rejects(Deno.stat(`${ws.path}/made.txt`));
  assert.equal(await Deno.readTextFile(`${ws.path}/b.txt`), "b\na\n");
  // With every setting used and no .mcp.json, nothing is said about unused ones (nor made).
  assert.doesNotMatch(stderr, /rein does not use/);
  await assert.rejects(Deno.stat(`${ws.path}/.mcp.json`));
});

Deno.test("Bash(npm test :*) allows nothing as in Claude Code, denies as a deny rule, and says so once", async () => {
  await using ws = await tempWorkspace();
  const { log, stderr } = await headless(
    ws.path,
    { allow: ["Bash(touch :*)", "Bash(mkdir *)"], deny: ["Bash(mkdir :*)"] },
    ["touch made.txt", "mkdir made"],
  );
  assert.equal(decided(log, "toolu_0"), "deny");
  const denied = log.find((e) => e.type === "permission.decided" && e.data.callId === "toolu_1");
  assert.match(String(denied?.data.reason), /Bash\(mkdir :\*\)/);
  await assert.rejects(Deno.stat(`${ws.path}/made.txt`));
  await assert.rejects(Deno.stat(`${ws.path}/made`));
  const warnings = stderr.split("\n").filter((line) => line.includes('before ":*"'));
  assert.equal(warnings.length, 2, stderr);
  assert.match(stderr, /"Bash\(touch :\*\)".*rein allows nothing by it either/);
  assert.match(stderr, /"Bash\(mkdir :\*\)".*stricter on purpose and denies/);
});

Deno.test("settings and files rein does not use are named once, in one line", async () => {
  await using ws = await tempWorkspace();
  await Deno.mkdir(`${ws.path}/.claude`, { recursive: true });
  await Deno.writeTextFile(
    `${ws.path}/.claude/settings.json`,
    JSON.stringify({ cleanupPeriodDays: 30, includeCoAuthoredBy: false }),
  );
  await Deno.writeTextFile(`${ws.path}/.mcp.json`, JSON.stringify({ mcpServers: {} }));
  const { stderr } = await headless(ws.path, { allow: [], outputStyle: [] }, []);
  const lines = stderr.split("\n").filter((line) => line.includes("rein does not use"));
  assert.deepEqual(lines.length, 1, stderr);
  for (const name of ["cleanupPeriodDays", "includeCoAuthoredBy", "outputStyle"]) {
    assert.equal(lines[0]?.split(name).length, 2, `${name} once in: ${lines[0]}`);
  }
  // The folder is not trusted: its .mcp.json is named once, by the trust notice, not twice.
  assert.equal(stderr.split(".mcp.json").length, 2, stderr);
  assert.match(stderr, /untrusted folder: .*MCP servers \(\.mcp\.json\)/);
});
