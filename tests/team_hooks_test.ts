/**
 * Hooks around a teammate, as Claude Code sends them: SubagentStart and SubagentStop carry the
 * teammate's name (`teammate_name`, its `agent_id` the name too), and TeammateIdle runs when the
 * teammate is about to go idle: its exit 2 keeps the teammate working, with the hook's stderr as
 * its next input. The log replays with `--verify`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { EnvelopeOf } from "../events/event_types.ts";
import { TEAMS_ENV } from "../core/mail/mod.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import { type FakeScriptFn, message, toolUse } from "../testing/fake_anthropic.ts";
import { firstUserText } from "../testing/scenarios.ts";
import { startTestSession } from "../testing/test_session.ts";

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

const script: FakeScriptFn = (request) => {
  const messages = request.body?.messages ?? [];
  const last = JSON.stringify(messages.at(-1) ?? "");
  if (firstUserText(messages) === "review the code") {
    return last.includes("Run the tests too") ? message("Tests pass.") : message("Reviewed.");
  }
  if (messages.length > 1) return message("Ok.");
  return message([toolUse("toolu_alice", "spawn_teammate", {
    name: "alice",
    prompt: "review the code",
    role: "reviewer",
  })]);
};

const hook = (command: string) => [{ hooks: [{ type: "command", command }] }];

Deno.test("SubagentStart and SubagentStop carry the teammate's name; TeammateIdle's exit 2 keeps the teammate working with its stderr", async () => {
  await using t = await startTestSession(script, {
    recordSettings: {
      settings: {
        hooks: {
          SubagentStart: hook("cat > start.json"),
          SubagentStop: hook("cat > stop.json"),
          TeammateIdle: hook(
            "cat > idle.json; if [ ! -e idle.once ]; then touch idle.once; " +
              'echo "Run the tests too" >&2; exit 2; fi',
          ),
        },
      },
      flags: { permissionMode: "bypassPermissions" },
      env: { [TEAMS_ENV]: "1" },
      features: ["todos", "agents", "teams", "claude_hook_events"],
    },
  });
  const lead = t.session;
  assert.equal((await lead.prompt("build a team", run())).reason, "completed");
  const alice = lead.sibling("alice");
  const turn = await alice.prompt("review the code", run());
  assert.equal(turn.reason, "completed", turn.message ?? "");
  assert.equal(alice.lastText, "Tests pass.");

  const read = async (name: string) =>
    JSON.parse(await Deno.readTextFile(join(t.workspace, name))) as Record<string, unknown>;
  const start = await read("start.json");
  assert.deepEqual(
    [start.hook_event_name, start.agent_id, start.teammate_name],
    ["SubagentStart", "alice", "alice"],
  );
  const stop = await read("stop.json");
  assert.deepEqual(
    [stop.hook_event_name, stop.agent_id, stop.teammate_name],
    ["SubagentStop", "alice", "alice"],
  );
  const idle = await read("idle.json");
  assert.deepEqual(
    [idle.hook_event_name, idle.teammate_name, idle.team_name],
    ["TeammateIdle", "alice", t.session.id],
  );

  const events = t.events();
  const ran = events.filter((e): e is EnvelopeOf<"hook.ran"> =>
    e.type === "hook.ran" && e.agent === "alice"
  ).map((e) => [e.data.hookEvent, e.data.exitCode]);
  assert.deepEqual(ran, [
    ["SubagentStart", 0],
    ["SubagentStop", 0],
    ["TeammateIdle", 2],
    ["SubagentStop", 0],
    ["TeammateIdle", 0],
  ]);
  // The hook's stderr was alice's next input.
  const asked = t.fake.requests.filter((r) =>
    firstUserText(r.body?.messages ?? []) === "review the code"
  );
  assert.equal(asked.length, 2);
  assert.match(
    JSON.stringify(asked[1]?.body?.messages.at(-1)),
    /TeammateIdle hook feedback: Run the tests too/,
  );
  // The lead is no teammate: no TeammateIdle for it.
  assert.equal(
    events.some((e) => e.type === "hook.ran" && e.agent === "lead"),
    false,
  );

  const replay = await replaySession(events);
  assert.equal(replay.divergence, null, JSON.stringify(replay.divergence));
});
