/**
 * A PermissionRequest hook's outputs as Claude Code honours them, end to end with a real Python
 * hook (tests/permission_request_hook/): `updatedInput` runs the call with the new input (judged
 * again by the deny rules and checked against the tool's schema), `updatedPermissions` adds a
 * rule as "don't ask again" would (saved to `.claude/settings.local.json` for `localSettings`),
 * and a deny with `interrupt: true` stops the turn. Headless rein against the fake model, then
 * replay --verify.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-permission-request-test";
const HOOK = fileURLToPath(new URL("./permission_request_hook/permission.py", import.meta.url));

Deno.test("a PermissionRequest hook's updatedInput, updatedPermissions and interrupt are honoured and recorded", async () => {
  await using ws = await tempWorkspace();
  await Deno.mkdir(`${ws.path}/.claude/hooks`, { recursive: true });
  await Deno.copyFile(HOOK, `${ws.path}/.claude/hooks/permission.py`);
  await Deno.writeTextFile(
    `${ws.path}/.claude/settings.json`,
    JSON.stringify({
      permissions: { deny: ["Bash(touch secret-denied.txt)"] },
      hooks: {
        PermissionRequest: [{
          matcher: "Bash",
          hooks: [{
            type: "command",
            command: 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/permission.py"',
          }],
        }],
      },
    }),
  );
  const commands = [
    "touch rewrite-me",
    "touch smuggle",
    "mkdir d1",
    "mkdir d2",
    "touch bad-input",
    "touch stop-here",
  ];
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const n = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length;
      const command = commands[n];
      return command === undefined
        ? message("Should not be asked again.")
        : message([toolUse(`toolu_${n}`, "bash", { command })]);
    },
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const run = await runCli(["--trust", "-p", "go", "--workspace", ws.path], { env });
  assert.equal(run.code, 0, run.stderr);

  // The interrupting deny ended the turn: the model was not asked after it.
  assert.equal(fake.requests.length, commands.length);
  // The hook was asked about every call but the second mkdir, which its rule allowed.
  assert.deepEqual(
    (await Deno.readTextFile(`${ws.path}/.claude/asked.txt`)).trim().split("\n"),
    ["touch rewrite-me", "touch smuggle", "mkdir d1", "touch bad-input", "touch stop-here"],
  );

  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  const decided = (id: string) =>
    log.find((e) => e.type === "permission.decided" && e.data.callId === id)?.data;
  const requested = (id: string) =>
    log.find((e) => e.type === "tool.requested" && e.data.callId === id)?.data;
  const completed = (id: string) =>
    log.find((e) => e.type === "tool.completed" && e.data.callId === id)?.data;

  // updatedInput: the call ran with the hook's input, recorded on the decision and the intent.
  assert.deepEqual(decided("toolu_0")?.source, {
    kind: "hook",
    command: 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/permission.py"',
    input: { command: "touch rewritten.txt" },
  });
  assert.deepEqual(requested("toolu_0")?.input, { command: "touch rewritten.txt" });
  await Deno.stat(`${ws.path}/rewritten.txt`);
  await assert.rejects(Deno.stat(`${ws.path}/rewrite-me`), Deno.errors.NotFound);

  // A changed input a deny rule refuses is refused: no smuggling past the rules.
  assert.equal(decided("toolu_1")?.decision, "deny");
  assert.match(
    String(decided("toolu_1")?.reason),
    /changed input.*Bash\(touch secret-denied\.txt\)/,
  );
  await assert.rejects(Deno.stat(`${ws.path}/secret-denied.txt`), Deno.errors.NotFound);

  // updatedPermissions: the rule is the session's and saved where Claude Code's localSettings is.
  const mkdir = decided("toolu_2")?.source as Record<string, unknown>;
  assert.deepEqual(mkdir.rules, ["Bash(mkdir:*)"]);
  assert.equal(mkdir.savedTo, `${ws.path}/.claude/settings.local.json`);
  const local = JSON.parse(await Deno.readTextFile(`${ws.path}/.claude/settings.local.json`));
  assert.deepEqual(local.permissions.allow, ["Bash(mkdir:*)"]);
  assert.deepEqual(decided("toolu_3")?.source, { kind: "session", rule: "Bash(mkdir:*)" });
  assert.ok((await Deno.stat(`${ws.path}/d2`)).isDirectory);

  // A changed input off the tool's schema does not run.
  assert.equal(completed("toolu_4")?.isError, true);
  await assert.rejects(Deno.stat(`${ws.path}/never.txt`), Deno.errors.NotFound);

  // deny + interrupt: denied with the hook's message, the turn ended there.
  assert.equal(decided("toolu_5")?.decision, "deny");
  assert.equal(decided("toolu_5")?.reason, "Stop everything, said the hook");
  assert.equal((decided("toolu_5")?.source as { interrupt?: boolean }).interrupt, true);
  const ended = log.findLast((e) => e.type === "turn.ended")?.data;
  assert.match(String(ended?.message), /Interrupted by a PermissionRequest hook/);

  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});

Deno.test("a PermissionRequest hook's setMode switches the session's mode, and its changed input may not write where only a person may allow", async () => {
  await using ws = await tempWorkspace();
  const outside = await Deno.makeTempDir({ prefix: "rein_outside_" });
  try {
    await Deno.mkdir(`${ws.path}/.claude/hooks`, { recursive: true });
    await Deno.copyFile(
      fileURLToPath(new URL("./permission_request_hook/modes.py", import.meta.url)),
      `${ws.path}/.claude/hooks/modes.py`,
    );
    await Deno.writeTextFile(
      `${ws.path}/.claude/settings.json`,
      JSON.stringify({
        hooks: {
          PermissionRequest: [{
            hooks: [{
              type: "command",
              command: 'python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/modes.py"',
            }],
          }],
        },
      }),
    );
    const calls = [
      toolUse("toolu_bash", "bash", { command: "touch first.txt" }),
      toolUse("toolu_edit", "write_file", { path: "notes.txt", content: "n\n" }),
      toolUse("toolu_out", "write_file", { path: `${outside}/outside.txt`, content: "x\n" }),
    ];
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const n = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length;
        const call = calls[n];
        return call === undefined ? message("Done.") : message([call]);
      },
    });
    const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
    const run = await runCli(["--trust", "-p", "go", "--workspace", ws.path], { env });
    assert.equal(run.code, 0, run.stderr);
    const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
    const decided = (id: string) =>
      log.find((e) => e.type === "permission.decided" && e.data.callId === id)?.data;

    // setMode: the session is in acceptEdits from then on; the rule for another file applies to
    // the session only (rein writes a hook's rules only to .claude/settings.local.json).
    const bash = decided("toolu_bash");
    assert.equal((bash?.source as { mode?: string }).mode, "acceptEdits");
    assert.deepEqual((bash?.source as { rules?: string[] }).rules, ["Bash(touch:*)"]);
    assert.match(String(bash?.reason), /apply for this session/);
    assert.deepEqual(decided("toolu_edit")?.source, { kind: "mode", mode: "acceptEdits" });
    assert.equal(await Deno.readTextFile(`${ws.path}/notes.txt`), "n\n");
    // A write outside the workspace asks even in acceptEdits; the hook's rewrite to a file under
    // .claude/ is refused, and nothing is written.
    assert.equal(decided("toolu_out")?.decision, "deny");
    assert.match(String(decided("toolu_out")?.reason), /only a person may allow/);
    assert.ok(!(await Deno.readTextFile(`${ws.path}/.claude/settings.json`)).includes("x\n"));
    await assert.rejects(Deno.stat(`${outside}/outside.txt`), Deno.errors.NotFound);

    const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});
