/**
 * Read before edit, end to end: a headless `rein -p` whose scripted model edits and writes files,
 * with the Edit, Write and Read tools allowed as a Claude Code user allows them. As in Claude Code,
 * edit_file (and write_file over an existing file) refuses a file the agent has not read, or that
 * changed on disk since it read it; creating a file needs no read; and each session replays with
 * `--verify`.
 */
import assert from "node:assert/strict";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { firstUserText, toolResultCount } from "../testing/scenarios.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

type Call = [id: string, tool: string, input: Record<string, unknown>];
type LogLine = Awaited<ReturnType<typeof readLogLines>>[number];

const NOT_READ = "File has not been read yet. Read it first before writing to it.";
const MODIFIED = "File has been modified since read, either by the user or by a linter. Read it " +
  "again before attempting to write it.";

/**
 * A headless run in `workspace` whose model makes `calls` one by one, then stops; `between(n)`
 * runs before the model's answer to the request that carries `n` results.
 */
async function headless(
  workspace: string,
  calls: readonly Call[],
  between: (results: number) => Promise<void> | void = () => {},
): Promise<LogLine[]> {
  await using fake = await startFakeAnthropic({
    script: async (request) => {
      const results = toolResultCount(request.body);
      await between(results);
      const call = calls[results];
      return call === undefined ? message("Done.") : message([toolUse(...call)]);
    },
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-test" };
  const args = ["-p", "go", "--allowedTools", "Edit Write Read", "--workspace", workspace];
  const run = await runCli(args, { env });
  assert.equal(run.code, 0, run.stderr);
  return await readLogLines(`${workspace}/.rein/events.jsonl`);
}

function resultOf(log: readonly LogLine[], callId: string): { content: string; isError: boolean } {
  const found = log.find((e) => e.type === "tool.completed" && e.data.callId === callId);
  assert.ok(found, `no result for ${callId}`);
  return { content: String(found.data.content), isError: found.data.isError === true };
}

async function replayVerifies(workspace: string): Promise<void> {
  const replay = await runCli(
    ["replay", `${workspace}/.rein/events.jsonl`, "--verify"],
    { permissions: ["--allow-read", "--allow-env"] },
  );
  assert.equal(replay.code, 0, `${replay.stdout}${replay.stderr}`);
  assert.match(replay.stdout, /all match the log/);
}

Deno.test("edit_file and write_file refuse a file the agent has not read, with Claude Code's words", async () => {
  await using ws = await tempWorkspace();
  await Deno.writeTextFile(`${ws.path}/a.ts`, "const a = 1;\n");
  const log = await headless(ws.path, [
    ["toolu_e", "edit_file", { path: "a.ts", old_string: "1", new_string: "2" }],
    ["toolu_w", "write_file", { path: "a.ts", content: "gone\n" }],
    // A new file needs no read.
    ["toolu_new", "write_file", { path: "b.ts", content: "new\n" }],
  ]);
  assert.deepEqual(resultOf(log, "toolu_e"), { content: NOT_READ, isError: true });
  assert.deepEqual(resultOf(log, "toolu_w"), { content: NOT_READ, isError: true });
  assert.equal(resultOf(log, "toolu_new").isError, false);
  assert.equal(await Deno.readTextFile(`${ws.path}/a.ts`), "const a = 1;\n");
  assert.equal(await Deno.readTextFile(`${ws.path}/b.ts`), "new\n");
  await replayVerifies(ws.path);
});

Deno.test("after read_file, edits go through, and the agent's own writes count as reads", async () => {
  await using ws = await tempWorkspace();
  await Deno.writeTextFile(`${ws.path}/a.ts`, "const a = 1;\n");
  const log = await headless(ws.path, [
    ["toolu_r", "read_file", { path: "a.ts", limit: 1 }],
    ["toolu_e1", "edit_file", { path: "a.ts", old_string: "1", new_string: "2" }],
    ["toolu_e2", "edit_file", { path: "a.ts", old_string: "2", new_string: "3" }],
    ["toolu_w", "write_file", { path: "a.ts", content: "const a = 4;\n" }],
    ["toolu_new", "write_file", { path: "b.ts", content: "x\n" }],
    ["toolu_e3", "edit_file", { path: "b.ts", old_string: "x", new_string: "y" }],
  ]);
  for (const id of ["toolu_e1", "toolu_e2", "toolu_w", "toolu_e3"]) {
    assert.equal(resultOf(log, id).isError, false, resultOf(log, id).content);
  }
  assert.equal(await Deno.readTextFile(`${ws.path}/a.ts`), "const a = 4;\n");
  assert.equal(await Deno.readTextFile(`${ws.path}/b.ts`), "y\n");
  await replayVerifies(ws.path);
});

Deno.test("a file changed on disk between the read and the edit is refused until read again", async () => {
  await using ws = await tempWorkspace();
  const file = `${ws.path}/a.ts`;
  await Deno.writeTextFile(file, "const a = 1;\n");
  const log = await headless(
    ws.path,
    [
      ["toolu_r", "read_file", { path: "a.ts" }],
      ["toolu_e", "edit_file", { path: "a.ts", old_string: "1", new_string: "2" }],
      ["toolu_w", "write_file", { path: "a.ts", content: "overwritten\n" }],
      ["toolu_r2", "read_file", { path: "a.ts" }],
      ["toolu_e2", "edit_file", { path: "a.ts", old_string: "10", new_string: "20" }],
    ],
    // The person (or a linter) changes the file after the agent read it.
    async (results) => {
      if (results === 1) await Deno.writeTextFile(file, "const a = 10;\n");
    },
  );
  assert.deepEqual(resultOf(log, "toolu_e"), { content: MODIFIED, isError: true });
  assert.deepEqual(resultOf(log, "toolu_w"), { content: MODIFIED, isError: true });
  assert.equal(resultOf(log, "toolu_e2").isError, false, resultOf(log, "toolu_e2").content);
  assert.equal(await Deno.readTextFile(file), "const a = 20;\n");
  await replayVerifies(ws.path);
});

Deno.test("a file whose time alone changed since a full read is edited; after a partial read it is refused", async () => {
  await using ws = await tempWorkspace();
  const full = `${ws.path}/full.ts`;
  const part = `${ws.path}/part.ts`;
  await Deno.writeTextFile(full, "const a = 1;\n");
  await Deno.writeTextFile(part, "const b = 1;\n");
  const log = await headless(
    ws.path,
    [
      ["toolu_rf", "read_file", { path: "full.ts" }],
      ["toolu_rp", "read_file", { path: "part.ts", offset: 1, limit: 1 }],
      ["toolu_ef", "edit_file", { path: "full.ts", old_string: "1", new_string: "2" }],
      ["toolu_ep", "edit_file", { path: "part.ts", old_string: "1", new_string: "2" }],
      ["toolu_wf", "write_file", { path: "full.ts", content: "const a = 3;\n" }],
    ],
    // Something touches both files (a formatter that changed nothing, a checkout).
    async (results) => {
      if (results !== 2 && results !== 4) return;
      const later = new Date(Date.now() + results * 5_000);
      await Deno.utime(full, later, later);
      await Deno.utime(part, later, later);
    },
  );
  assert.equal(resultOf(log, "toolu_ef").isError, false, resultOf(log, "toolu_ef").content);
  assert.deepEqual(resultOf(log, "toolu_ep"), { content: MODIFIED, isError: true });
  assert.equal(resultOf(log, "toolu_wf").isError, false, resultOf(log, "toolu_wf").content);
  assert.equal(await Deno.readTextFile(full), "const a = 3;\n");
  assert.equal(await Deno.readTextFile(part), "const b = 1;\n");
  await replayVerifies(ws.path);
});

Deno.test("a subagent's reads are its own: the parent's read does not let it edit, its own does", async () => {
  await using ws = await tempWorkspace();
  await Deno.writeTextFile(`${ws.path}/a.ts`, "const a = 1;\n");
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const done = toolResultCount(request.body);
      if (firstUserText(request.body?.messages ?? []) === "edit a.ts") {
        const calls: Call[] = [
          ["toolu_sub_e1", "edit_file", { path: "a.ts", old_string: "1", new_string: "2" }],
          ["toolu_sub_r", "read_file", { path: "a.ts" }],
          ["toolu_sub_e2", "edit_file", { path: "a.ts", old_string: "1", new_string: "2" }],
        ];
        const call = calls[done];
        return call === undefined ? message("child done") : message([toolUse(...call)]);
      }
      const calls: Call[] = [
        ["toolu_r", "read_file", { path: "a.ts" }],
        ["toolu_t", "task", {
          description: "edit",
          prompt: "edit a.ts",
          subagent_type: "general-purpose",
        }],
        // The subagent changed the file since the parent read it.
        ["toolu_e", "edit_file", { path: "a.ts", old_string: "2", new_string: "3" }],
      ];
      const call = calls[done];
      return call === undefined ? message("Done.") : message([toolUse(...call)]);
    },
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-test" };
  const args = ["-p", "go", "--allowedTools", "Edit Write Read Task", "--workspace", ws.path];
  const run = await runCli(args, { env });
  assert.equal(run.code, 0, run.stderr);
  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  assert.deepEqual(resultOf(log, "toolu_sub_e1"), { content: NOT_READ, isError: true });
  assert.equal(resultOf(log, "toolu_sub_e2").isError, false, resultOf(log, "toolu_sub_e2").content);
  assert.deepEqual(resultOf(log, "toolu_e"), { content: MODIFIED, isError: true });
  assert.equal(await Deno.readTextFile(`${ws.path}/a.ts`), "const a = 2;\n");
  await replayVerifies(ws.path);
});
