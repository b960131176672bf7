/**
 * CLAUDE_ENV_FILE, as Claude Code gives it to SessionStart hooks: what a hook writes there
 * (`export NAME=value` lines) is in the environment of the session's later bash commands, read
 * without a shell, recorded on the hook's run, and applied again from the log after a resume
 * without running the hook. Headless rein with a real bash hook against the fake model, then
 * replay --verify.
 */
import assert from "node:assert/strict";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-hook-env-file-test";

/** Writes the env file on a fresh start only: a resume gets the variables from the log. */
const HOOK = `#!/bin/bash
source=$(jq -r .source)
[ "$source" = startup ] || exit 0
{
  echo 'export GREETING="hello from the hook"'
  echo "export PATH=\\"$CLAUDE_PROJECT_DIR/tools:\\$PATH\\""
  echo 'export NOW=$(date)'
  echo 'export DEPLOY_TOKEN=s3cret-value'
} >> "$CLAUDE_ENV_FILE"
`;

const PROBE = 'echo "$GREETING"; greet; echo "[${NOW-unset}][${DEPLOY_TOKEN-unset}]"';

Deno.test("a SessionStart hook's CLAUDE_ENV_FILE sets variables for later bash commands, recorded and kept across a resume", async () => {
  await using ws = await tempWorkspace();
  await Deno.mkdir(`${ws.path}/.claude/hooks`, { recursive: true });
  await Deno.mkdir(`${ws.path}/tools`);
  await Deno.writeTextFile(`${ws.path}/tools/greet`, "#!/bin/sh\necho greet ran\n", {
    mode: 0o755,
  });
  await Deno.writeTextFile(`${ws.path}/.claude/hooks/env.sh`, HOOK, { mode: 0o755 });
  await Deno.writeTextFile(
    `${ws.path}/.claude/settings.json`,
    JSON.stringify({
      hooks: {
        SessionStart: [{
          hooks: [{ type: "command", command: '"$CLAUDE_PROJECT_DIR/.claude/hooks/env.sh"' }],
        }],
      },
    }),
  );
  let calls = 0;
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const last = request.body?.messages?.at(-1);
      const answered = JSON.stringify(last?.content ?? "").includes("tool_result");
      if (answered) return message("Done.");
      calls += 1;
      return message([toolUse(`toolu_probe${calls}`, "bash", { command: PROBE })]);
    },
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const flags = ["--trust", "--allowedTools", "Bash", "--workspace", ws.path];
  const first = await runCli([...flags, "-p", "probe"], { env });
  assert.equal(first.code, 0, first.stderr);
  // The lines left out are named once, in one line.
  const notices = first.stderr.split("\n").filter((line) => line.includes("CLAUDE_ENV_FILE"));
  assert.equal(notices.length, 1, first.stderr);
  assert.match(
    notices[0] ?? "",
    /lines left out: line 3: .*\$\(.*; line 4: DEPLOY_TOKEN is a secret/,
  );
  const again = await runCli([...flags, "--continue", "-p", "probe again"], { env });
  assert.equal(again.code, 0, again.stderr);

  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  const output = (id: string) =>
    String(log.find((e) => e.type === "tool.completed" && e.data.callId === id)?.data.content);
  // The variables, PATH included, reach bash; what a shell would run and a secret do not.
  const expected = "hello from the hook\ngreet ran\n[unset][unset]";
  assert.equal(output("toolu_probe1"), expected);
  // After the resume the hook wrote nothing: the variables come from the log.
  assert.equal(output("toolu_probe2"), expected);

  const runs = log.filter((e) => e.type === "hook.ran" && e.data.hookEvent === "SessionStart");
  assert.equal(runs.length, 2);
  const recorded = runs[0]?.data as { env?: Record<string, string>; envIgnored?: string[] };
  assert.equal(recorded.env?.GREETING, "hello from the hook");
  assert.match(String(recorded.env?.PATH), new RegExp(`^${ws.path}/tools:`));
  assert.deepEqual(recorded.envIgnored?.map((line) => line.split(":")[0]), ["line 3", "line 4"]);
  assert.equal(runs[1]?.data.env, undefined);
  // A secret written there never reaches the log.
  assert.ok(!(await Deno.readTextFile(`${ws.path}/.rein/events.jsonl`)).includes("s3cret-value"));

  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});
