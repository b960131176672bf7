/**
 * A custom slash command given as the prompt of a continued or resumed session (`--continue -p
 * "/cmd args"`, `--resume ID -p …`) is expanded as in a new session: found among the files the
 * resume records (a command written since the session began too), recorded as `command.invoked`,
 * its `allowed-tools` granted for its turn; the log replays with `--verify`.
 */
import assert from "node:assert/strict";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import type { RecordedRequest } from "../testing/fake_anthropic.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-continue-slash-test";

function lastUser(request: RecordedRequest): string {
  return JSON.stringify(request.body?.messages?.at(-1)?.content ?? "");
}

Deno.test("--continue and --resume expand a custom slash command given as the prompt", async () => {
  await using ws = await tempWorkspace();
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const last = lastUser(request);
      if (last.includes("Deploy the-app now")) {
        return message([toolUse("toolu_deploy", "bash", { command: "touch deployed.txt" })]);
      }
      return message("Okay.");
    },
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const flags = ["--trust", "--workspace", ws.path];
  const first = await runCli([...flags, "-p", "hello"], { env });
  assert.equal(first.code, 0, first.stderr);

  // Written after the session began: the resume reads it.
  await Deno.mkdir(`${ws.path}/.claude/commands`, { recursive: true });
  await Deno.writeTextFile(
    `${ws.path}/.claude/commands/deploy.md`,
    "---\ndescription: Deploy\nallowed-tools: Bash(touch deployed.txt)\n---\nDeploy $ARGUMENTS now.\n",
  );
  const continued = await runCli([...flags, "--continue", "-p", "/deploy the-app"], { env });
  assert.equal(continued.code, 0, continued.stderr);
  const asked = fake.requests.find((r) => lastUser(r).includes("Deploy the-app now"));
  assert.ok(asked, "the command's text reached the model");
  assert.ok(!fake.requests.some((r) => lastUser(r).includes("/deploy the-app")));
  // Its allowed-tools let the call run headless, with no other rule allowing it.
  await Deno.stat(`${ws.path}/deployed.txt`);

  const log = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  const session = String(log.find((e) => e.type === "session.started")?.session);
  const resumed = await runCli([...flags, "--resume", session, "-p", "/deploy again"], { env });
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.ok(fake.requests.some((r) => lastUser(r).includes("Deploy again now")));

  const after = await readLogLines(`${ws.path}/.rein/events.jsonl`);
  const invoked = after.filter((e) => e.type === "command.invoked").map((e) => e.data.arguments);
  assert.deepEqual(invoked, ["the-app", "again"]);
  const prompts = after.filter((e) => e.type === "user.prompted").map((e) => e.data.text);
  assert.deepEqual(prompts, ["hello", "Deploy the-app now.", "Deploy again now."]);

  const replay = await runCli(["replay", "--verify", "--quiet", "--workspace", ws.path]);
  assert.equal(replay.code, 0, replay.stdout + replay.stderr);
});
