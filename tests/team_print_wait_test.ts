/**
 * `rein -p` with a team: the lead's turn ends while its teammate (in its own process) is still at
 * work; the run waits for it, reading in what the teammate's process appends, is woken by the
 * teammate's mail, answers it, and only then exits; the log replays with `--verify`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { firstUserText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { runCli } from "./_cli.ts";
import { untilLogged } from "./_team_e2e.ts";

Deno.test("rein -p waits for a working teammate and answers its mail before it exits", async () => {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-wait-" }));
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const messages = request.body?.messages ?? [];
      if (firstUserText(messages) === "Count the files") {
        if (messages.length > 1) return message("Sent.");
        return message([
          toolUse("toolu_mail", "send_message", { to: "team-lead", content: "bob: 3 files" }),
        ]);
      }
      if (JSON.stringify(messages.at(-1)).includes("bob: 3 files")) {
        return message("Bob counted 3 files.");
      }
      if (messages.length > 1) return message("Bob is on it.");
      return message([toolUse("toolu_bob", "spawn_teammate", {
        name: "bob",
        prompt: "Count the files",
      })]);
    },
    // The teammate's first answer comes once the lead's turn has ended.
    onRequest: async (request) => {
      const messages = request.body?.messages ?? [];
      if (firstUserText(messages) === "Count the files" && messages.length === 1) {
        await untilLogged(
          join(path, ".rein", "events.jsonl"),
          "the end of the lead's turn",
          (events) => events.find((e) => e.type === "turn.ended" && e.agent === events[0]?.agent),
        );
      }
    },
  });
  try {
    const env = {
      ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_API_KEY: "sk-test-key",
      CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: "1",
      // Bob, idle at the end, is asked to shut down and does not answer: not waited for long.
      REIN_SHUTDOWN_TIMEOUT_MS: "300",
    };
    const result = await runCli(
      ["-p", "start bob", "--workspace", path, "--permission-mode", "bypassPermissions"],
      { env },
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /Bob counted 3 files\./);
    assert.match(result.stderr, /teammate/i, "it said what it waited for");
    const replay = await runCli(["replay", "--workspace", path, "--verify"], { env });
    assert.equal(replay.code, 0, replay.stdout + replay.stderr);
  } finally {
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
  }
});
