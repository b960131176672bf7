import assert from "node:assert/strict";
import { ToolNames } from "../tools/tool_names.ts";
import { addressMail, mailRecipients } from "./mail_recipients.ts";
import { MAIL_MAX_CHARS, sendMessageTool } from "./send_message_tool.ts";
import type { State } from "../state/state.ts";

const names = new ToolNames([sendMessageTool]);

Deno.test("send_message answers to Claude Code's SendMessage in rules and hook matchers, its message field being content", () => {
  assert.equal(names.ruleTool("SendMessage"), "send_message");
  assert.equal(names.claudeName("send_message"), "SendMessage");
  assert.deepEqual(names.matchNames("send_message"), ["SendMessage", "send_message"]);
  assert.deepEqual(names.facts("send_message")?.claudeFields, { content: "message" });
  assert.equal(names.permission("send_message"), "read-only");
});

/** A state with the lead and the agents `agents` (name → running or not) in session s1. */
function stateWith(agents: Record<string, boolean>): State {
  const view = (name: string, running: boolean, spawned: boolean) => ({
    name,
    status: running ? "unfinished" : "idle",
    spawn: spawned ? { parent: "lead" } : null,
  });
  return {
    sessions: {
      byId: {
        s1: {
          mainAgent: "lead",
          agents: {
            lead: view("lead", false, false),
            ...Object.fromEntries(
              Object.entries(agents).map(([name, running]) => [name, view(name, running, true)]),
            ),
          },
        },
      },
      order: ["s1"],
    },
  } as unknown as State;
}

Deno.test("the lead is team-lead, lead or its name; a running subagent its name; a finished one nobody", () => {
  const state = stateWith({ "Explore@t1": true, "Explore@t0": false });
  assert.deepEqual(mailRecipients(state, "s1").map((r) => r.name), ["lead", "Explore@t1"]);
  for (const to of ["team-lead", "lead", "main", " Team-Lead "]) {
    assert.deepEqual(addressMail(state, "s1", "Explore@t1", to), { recipients: ["lead"] }, to);
  }
  assert.deepEqual(addressMail(state, "s1", "lead", "Explore@t1"), { recipients: ["Explore@t1"] });
  assert.deepEqual(addressMail(state, "s1", "lead", "Explore@t0"), {
    error: 'Unknown recipient "Explore@t0": the agents mail can reach are team-lead, Explore@t1',
  });
  assert.deepEqual(addressMail(state, "s1", "lead", ""), {
    error: 'Missing recipient: "to" must name an agent (team-lead, Explore@t1) or be "*"',
  });
});

Deno.test("a broadcast reaches every live agent but the sender, and is refused with nobody to reach", () => {
  const state = stateWith({ a: true, b: true });
  assert.deepEqual(addressMail(state, "s1", "a", "*"), { recipients: ["lead", "b"] });
  assert.deepEqual(addressMail(state, "s1", "lead", "*"), { recipients: ["a", "b"] });
  assert.deepEqual(addressMail(stateWith({}), "s1", "lead", "*"), {
    error: 'Nobody to send to: "*" reaches every other live agent, and there is none',
  });
});

Deno.test("a live teammate of the roster is reached while idle; a stopped or crashed one is not", () => {
  const state = stateWith({ alice: false, bob: false, carol: false, "Explore@t0": false });
  const entry = (name: string, status: string, session = "s1") => ({ session, name, status });
  (state as unknown as { catalog: unknown }).catalog = {
    team: {
      byKey: {
        "s1/alice": entry("alice", "idle"),
        "s1/bob": entry("bob", "stopped"),
        "s1/carol": entry("carol", "crashed"),
        "s2/Explore@t0": entry("Explore@t0", "idle", "s2"),
      },
      order: ["s1/alice", "s1/bob", "s1/carol", "s2/Explore@t0"],
    },
  };
  assert.deepEqual(mailRecipients(state, "s1").map((r) => r.name), ["lead", "alice"]);
  assert.deepEqual(addressMail(state, "s1", "lead", "alice"), { recipients: ["alice"] });
  assert.deepEqual(addressMail(state, "s1", "alice", "*"), { recipients: ["lead"] });
});

Deno.test("a message over MAIL_MAX_CHARS is refused and records nothing", async () => {
  const state = stateWith({ a: true });
  const context = {
    session: "s1",
    agent: "lead",
    callId: "c1",
    view: () => state,
  } as unknown as Parameters<typeof sendMessageTool.run>[1];
  const long = await sendMessageTool.run(
    { to: "a", content: "x".repeat(MAIL_MAX_CHARS + 1) },
    context,
  );
  assert.equal(long.isError, true);
  assert.match(long.content, /^Message too long: 100001 characters, at most 100000/);
  assert.equal(long.events, undefined);
  const fits = await sendMessageTool.run({ to: "a", content: "x".repeat(MAIL_MAX_CHARS) }, context);
  assert.equal(fits.isError, undefined);
  assert.equal(fits.events?.length, 1);
});
