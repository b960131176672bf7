/**
 * A Claude Code name means the same tool wherever rein meets it: in a hook's matcher, in a
 * permission rule and in an agent definition's `tools` (they once came from three tables that
 * had drifted: `MultiEdit` and `LS` mapped in one and not the others).
 */
import assert from "node:assert/strict";
import { reinToolNames } from "../core/agents/child_tools.ts";
import { hookMatchNames } from "../core/hooks/claude_tool_names.ts";
import { matcherSelects } from "../core/hooks/hook_matcher.ts";
import { parseRule } from "../core/permissions/rule.ts";
import {
  type FakeScriptFn,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

/** The model's n-th answer of the turn (counting its earlier answers in the request). */
function answers(steps: (() => ReturnType<FakeScriptFn>)[]): FakeScriptFn {
  return (request) => {
    const n = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length;
    return (steps[n] ?? (() => message("Nothing more.")))();
  };
}

Deno.test("a MultiEdit|Write hook matcher runs for edit_file and write_file, a rule LS denies glob, and it replays", async () => {
  await using ws = await tempWorkspace();
  await Deno.mkdir(`${ws.path}/.claude`, { recursive: true });
  await Deno.writeTextFile(
    `${ws.path}/.claude/settings.json`,
    JSON.stringify({
      permissions: { allow: ["Edit"], deny: ["LS"] },
      hooks: {
        PreToolUse: [{
          matcher: "MultiEdit|Write",
          hooks: [{ type: "command", command: 'cat >> "$CLAUDE_PROJECT_DIR/hooked.jsonl"' }],
        }],
      },
    }),
  );
  await using fake = await startFakeAnthropic({
    script: answers([
      () => message([toolUse("toolu_write", "write_file", { path: "a.txt", content: "one" })]),
      () =>
        message([
          toolUse("toolu_edit", "edit_file", {
            path: "a.txt",
            old_string: "one",
            new_string: "two",
          }),
        ]),
      () => message([toolUse("toolu_glob", "glob", { pattern: "*.txt" })]),
      () => message("Done."),
    ]),
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-tool-names" };
  const run = await runCli(["--trust", "-p", "write, edit, list", "--workspace", ws.path], { env });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(await Deno.readTextFile(`${ws.path}/a.txt`), "two");

  // The hook ran for the write (Claude Code's Write) and the edit (Edit, whose alias is MultiEdit).
  const hooked = (await Deno.readTextFile(`${ws.path}/hooked.jsonl`))
    .replaceAll("}{", "}\n{").trim().split("\n").map((line) => JSON.parse(line));
  assert.deepEqual(hooked.map((input) => input.tool_name), ["Write", "Edit"]);
  assert.equal(hooked[1].tool_input.file_path, `${ws.path}/a.txt`);

  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  const glob = log.find((e) => e.type === "tool.completed" && e.data.callId === "toolu_glob");
  assert.equal(glob?.data.outcome, "denied");
  const decided = log.find((e) =>
    e.type === "permission.decided" && e.data.callId === "toolu_glob"
  );
  assert.deepEqual(decided?.data.source, {
    kind: "rule",
    rule: "LS",
    file: `${ws.path}/.claude/settings.json`,
  });

  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("MultiEdit and LS name edit_file and glob in rules, hook matchers and agent definitions alike", () => {
  for (const [claude, rein] of [["MultiEdit", "edit_file"], ["LS", "glob"]] as const) {
    const rule = parseRule(claude);
    assert.ok(rule.ok);
    assert.equal(rule.rule.tool, rein);
    assert.ok(
      matcherSelects(claude, hookMatchNames(rein)),
      `a ${claude} hook matcher runs for ${rein}`,
    );
    assert.deepEqual(reinToolNames([claude]), [rein]);
  }
  assert.ok(matcherSelects("MultiEdit|Write", hookMatchNames("write_file")));
  assert.ok(!matcherSelects("MultiEdit|Write", hookMatchNames("glob")));
  // A Claude Code tool rein lacks: a valid rule, no hook runs, no tool in an agent's pool.
  const rule = parseRule("NotebookEdit");
  assert.ok(rule.ok);
  assert.equal(rule.rule.tool, "NotebookEdit");
  assert.ok(!matcherSelects("NotebookEdit", hookMatchNames("edit_file")));
  assert.deepEqual(reinToolNames(["NotebookEdit"]), ["NotebookEdit"]);
});
