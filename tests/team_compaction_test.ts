/**
 * The team survives compaction: after the lead's or a teammate's conversation is compacted, the
 * roster (names, roles, status) and the protocol requests still pending are put back into it, as
 * todos are, and reach its next request. The log replays with `--verify`.
 */
import assert from "node:assert/strict";
import type { Envelope, EnvelopeOf } from "../events/event_types.ts";
import { TEAMS_ENV } from "../core/mail/mod.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import { type FakeScriptFn, message, toolUse } from "../testing/fake_anthropic.ts";
import { firstUserText } from "../testing/scenarios.ts";
import { startTestSession } from "../testing/test_session.ts";

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

const script: FakeScriptFn = (request) => {
  const messages = request.body?.messages ?? [];
  const last = JSON.stringify(messages.at(-1) ?? "");
  if (last.includes("summar")) return message("Summary: the work so far.");
  if (firstUserText(messages) === "build a team" && messages.length === 1) {
    return message([
      toolUse("toolu_alice", "spawn_teammate", {
        name: "alice",
        prompt: "review the code",
        role: "reviewer",
      }),
      toolUse("toolu_bob", "spawn_teammate", { name: "bob", prompt: "write the docs" }),
    ]);
  }
  if (last.includes("stop bob")) {
    return message([toolUse("toolu_stop", "request_shutdown", { to: "bob" })]);
  }
  return message("Ok.");
};

function reminders(events: readonly Envelope[], agent: string, source: string): string[] {
  return events.filter((event): event is EnvelopeOf<"reminder.added"> =>
    event.type === "reminder.added" && event.agent === agent && event.data.source === source
  ).map((event) => event.data.text);
}

Deno.test("after the lead's or a teammate's conversation is compacted, the roster and pending requests are put back and reach its next request", async () => {
  await using t = await startTestSession(script, {
    recordSettings: {
      settings: {},
      flags: { permissionMode: "bypassPermissions" },
      env: { [TEAMS_ENV]: "1" },
      features: ["todos", "agents", "teams", "compaction"],
    },
  });
  const lead = t.session;
  assert.equal((await lead.prompt("build a team", run())).reason, "completed");
  const alice = lead.sibling("alice");
  assert.equal((await alice.prompt("review the code", run())).reason, "completed");
  assert.equal((await alice.prompt("and the tests", run())).reason, "completed");
  // Bob (never started here: still "working" in the roster) is asked to shut down and has not
  // answered when the lead compacts.
  assert.equal((await lead.prompt("stop bob", run())).reason, "completed");

  const signal = new AbortController().signal;
  const compacted = await lead.compact(undefined, signal);
  assert.equal(compacted.compacted, true, JSON.stringify(compacted));
  const [leadTeam] = reminders(t.events(), "lead", "team");
  assert.equal(
    leadTeam,
    "Your team, as it stands after the compaction (write to a teammate with send_message to " +
      "its name):\n- team-lead: the lead (you)\n- alice (reviewer): idle\n- bob: working",
  );
  assert.match(
    reminders(t.events(), "lead", "protocols")[0] ?? "",
    /you asked bob to shut down \(request toolu_stop\): no answer yet/,
  );

  assert.equal((await alice.compact(undefined, signal)).compacted, true);
  const [aliceTeam] = reminders(t.events(), "alice", "team");
  assert.match(aliceTeam ?? "", /- team-lead: the lead\n- alice \(reviewer\): idle \(you\)\n/);

  // Both reach the lead's next request.
  assert.equal((await lead.prompt("who is on the team?", run())).reason, "completed");
  const asked = JSON.stringify(t.fake.requests.at(-1)?.body?.messages ?? []);
  assert.ok(asked.includes("alice (reviewer): idle"), asked);
  assert.ok(asked.includes("request toolu_stop"), asked);

  const all = t.events();
  const replay = await replaySession(all);
  assert.equal(replay.divergence, null, JSON.stringify(replay.divergence));
  assert.equal(replay.matched, all.length);
});
