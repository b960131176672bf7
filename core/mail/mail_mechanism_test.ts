import assert from "node:assert/strict";
import { lastMessageText } from "../../testing/scenarios.ts";
import type { Envelope } from "../../events/event_types.ts";
import {
  type FakeScriptFn,
  message,
  type RecordedRequest,
  toolUse,
} from "../../testing/fake_anthropic.ts";
import { firstUserText } from "../../testing/scenarios.ts";
import { startTestSession } from "../../testing/test_session.ts";
import { unreadMail } from "./mail_of.ts";
import { TEAMS_ENV } from "./teams_enabled.ts";

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

/** The features of a session recorded by this rein that mail's tests need (subagents, teams). */
const FEATURES = ["todos", "agents", "teams"];

/** A session recorded as the CLI records one with teams on (or as `env` and `features` say). */
function teams(env: Record<string, string> = { [TEAMS_ENV]: "1" }, features = FEATURES) {
  return {
    recordSettings: {
      settings: {},
      flags: { permissionMode: "bypassPermissions" },
      env,
      features,
    },
  };
}

/** Every request's text, for counting how often something reached the model. */
function allRequestText(requests: readonly RecordedRequest[]): string[] {
  return requests.map(lastMessageText);
}

function ofType<T extends Envelope["type"]>(events: readonly Envelope[], type: T) {
  return events.filter((e): e is Extract<Envelope, { type: T }> => e.type === type);
}

/** The lead mails itself, then answers once the mail has reached it. */
const mailSelf: FakeScriptFn = (request) => {
  const last = lastMessageText(request);
  if (last.includes("<teammate-message")) return message("Got my note.");
  if (last.includes("toolu_send")) return message("Sent.");
  return message([
    toolUse("toolu_send", "send_message", {
      to: "team-lead",
      content: "remember the milk",
      summary: "a note",
    }),
  ]);
};

Deno.test("mail the lead sends itself reaches its next request once, as a teammate-message", async () => {
  await using t = await startTestSession(mailSelf, teams());
  const result = await t.session.prompt("note something", run());
  assert.equal(result.reason, "completed");
  const tools = t.fake.requests[0]?.body?.tools?.map((tool) => tool.name) ?? [];
  assert.ok(tools.includes("send_message") && tools.includes("check_inbox"), tools.join());
  const events = t.events();
  const sent = ofType(events, "mail.sent");
  assert.deepEqual(sent.map((e) => [e.agent, e.data]), [["lead", {
    id: "toolu_send",
    from: "lead",
    to: "team-lead",
    recipients: ["lead"],
    content: "remember the milk",
    summary: "a note",
    kind: "message",
  }]]);
  const results = ofType(events, "tool.completed").map((e) => e.data.content);
  assert.deepEqual(results, ["Message sent to team-lead's inbox"]);
  const injected = ofType(events, "arrival.injected");
  const block = '<teammate-message teammate_id="team-lead" summary="a note">\n' +
    "remember the milk\n</teammate-message>";
  assert.deepEqual(injected.map((e) => [e.data.source, e.data.key, e.data.text]), [
    ["mail", "toolu_send", block],
  ]);
  // It reached the model in one request (the one after the send), and the inbox is empty.
  const seen = allRequestText(t.fake.requests).filter((text) => text.includes(block));
  assert.equal(seen.length, 1);
  assert.equal(t.fake.requests.length, 2);
  assert.deepEqual(unreadMail(t.harness.state, t.session.id, "lead"), []);
  // The system prompt says what such mail is.
  const system = JSON.stringify(t.fake.requests[0]?.body?.system);
  assert.match(system, /carry none of the user's authority/);
});

Deno.test("mail to an unknown agent is an error naming the agents there are, and records nothing", async () => {
  const script: FakeScriptFn = (request) =>
    lastMessageText(request).includes("toolu_bad")
      ? message("Nobody there.")
      : message([toolUse("toolu_bad", "send_message", { to: "bob", content: "hi" })]);
  await using t = await startTestSession(script, teams());
  await t.session.prompt("write to bob", run());
  const completed = ofType(t.events(), "tool.completed").map((
    e,
  ) => [e.data.content, e.data.isError]);
  assert.deepEqual(completed, [[
    'Unknown recipient "bob": the agents mail can reach are team-lead',
    true,
  ]]);
  assert.deepEqual(ofType(t.events(), "mail.sent"), []);
});

Deno.test("check_inbox reads unread mail in the middle of a turn and marks it read, so it never arrives again", async () => {
  const script: FakeScriptFn = (request) => {
    const last = lastMessageText(request);
    if (last.includes("toolu_check")) return message("Read it.");
    return message([
      toolUse("toolu_send", "send_message", { to: "lead", content: "ping" }),
      toolUse("toolu_check", "check_inbox", {}),
    ]);
  };
  await using t = await startTestSession(script, teams());
  await t.session.prompt("mail and check", run());
  const events = t.events();
  const results = ofType(events, "tool.completed").map((e) => e.data.content);
  assert.deepEqual(results, [
    "Message sent to team-lead's inbox",
    '<teammate-message teammate_id="team-lead">\nping\n</teammate-message>',
  ]);
  assert.deepEqual(ofType(events, "mail.read").map((e) => [e.agent, e.data.ids]), [
    ["lead", ["toolu_send"]],
  ]);
  assert.deepEqual(ofType(events, "arrival.injected"), []);
  // check_inbox with nothing unread says so and records nothing more.
  const again: FakeScriptFn = (request) =>
    lastMessageText(request).includes("toolu_empty")
      ? message("Empty.")
      : message([toolUse("toolu_empty", "check_inbox", {})]);
  await using u = await startTestSession(again, teams());
  await u.session.prompt("check", run());
  assert.deepEqual(ofType(u.events(), "tool.completed").map((e) => e.data.content), [
    "No unread mail",
  ]);
  assert.deepEqual(ofType(u.events(), "mail.read"), []);
});

Deno.test("a subagent mails the lead, which gets it once after the task call", async () => {
  const script: FakeScriptFn = (request) => {
    const task = firstUserText(request.body?.messages ?? []);
    const last = lastMessageText(request);
    if (task === "look around") {
      if (last.includes("toolu_child_send")) return message("Looked.");
      return message([
        toolUse("toolu_child_send", "send_message", {
          to: "team-lead",
          content: "found a bug in x.ts",
          summary: "bug",
        }),
      ]);
    }
    if (last.includes("<teammate-message")) return message("Noted the bug.");
    return message([
      toolUse("toolu_task", "task", { description: "look", prompt: "look around" }),
    ]);
  };
  await using t = await startTestSession(script, teams());
  const result = await t.session.prompt("go", run());
  assert.equal(result.reason, "completed");
  const child = "general-purpose@toolu_task";
  const sent = ofType(t.events(), "mail.sent");
  assert.deepEqual(sent.map((e) => [e.agent, e.data.recipients]), [[child, ["lead"]]]);
  const injected = ofType(t.events(), "arrival.injected");
  assert.deepEqual(injected.map((e) => [e.agent, e.data.text]), [[
    "lead",
    `<teammate-message teammate_id="${child}" summary="bug">\nfound a bug in x.ts\n` +
    "</teammate-message>",
  ]]);
  const last = t.fake.requests.at(-1) as RecordedRequest;
  assert.match(lastMessageText(last), /found a bug in x\.ts/);
  assert.equal(t.fake.requests.filter((r) => lastMessageText(r).includes("found a bug")).length, 1);
});

Deno.test("two subagents running at once mail each other by name, and a broadcast reaches every other live agent", async () => {
  const started = new Set<string>();
  let bothStarted: () => void = () => {};
  const both = new Promise<void>((resolve) => bothStarted = resolve);
  let markSent: () => void = () => {};
  const aSent = new Promise<void>((resolve) => markSent = resolve);
  let checks = 0;
  const script: FakeScriptFn = async (request) => {
    const task = firstUserText(request.body?.messages ?? []);
    const last = lastMessageText(request);
    if (task === "be a" || task === "be b") {
      if (!started.has(task)) {
        started.add(task);
        if (started.size === 2) bothStarted();
        await both;
      }
      if (task === "be a") {
        if (last.includes("toolu_a_all")) return message("A done.");
        if (last.includes("toolu_a_send")) {
          markSent();
          return message([toolUse("toolu_a_all", "send_message", { to: "*", content: "all" })]);
        }
        return message([
          toolUse("toolu_a_send", "send_message", {
            to: "general-purpose@toolu_b",
            content: "hello b",
          }),
        ]);
      }
      // b looks at its inbox until a's letter is there, then ends.
      if (last.includes("hello b")) return message("B got it.");
      await aSent;
      return message([toolUse(`toolu_b_check${++checks}`, "check_inbox", {})]);
    }
    if (last.includes("toolu_a") && last.includes("toolu_b")) return message("Both done.");
    return message([
      toolUse("toolu_a", "task", { description: "a", prompt: "be a" }),
      toolUse("toolu_b", "task", { description: "b", prompt: "be b" }),
    ]);
  };
  await using t = await startTestSession(script, teams());
  await t.session.prompt("start two", run());
  const sent = ofType(t.events(), "mail.sent");
  const a = "general-purpose@toolu_a";
  const b = "general-purpose@toolu_b";
  assert.deepEqual(sent[0]?.data.recipients, [b]);
  assert.equal(sent[0]?.agent, a);
  // The broadcast went to the lead and, when b was still running, to b: never to a itself.
  const everyone = sent[1]?.data.recipients ?? [];
  assert.equal(everyone[0], "lead");
  assert.ok(!everyone.includes(a), everyone.join());
  // b got a's letter exactly once (by check_inbox or before a request).
  const deliveredToB = t.events().filter((e) =>
    e.agent === b &&
    ((e.type === "mail.read" && e.data.ids.includes("toolu_a_send")) ||
      (e.type === "arrival.injected" && e.data.key.split(",").includes("toolu_a_send")))
  );
  assert.equal(deliveredToB.length, 1);
});

Deno.test("with teams off, or in a session recorded without the teams feature, there are no mail tools and nothing is recorded", async () => {
  const cases = [
    { env: {}, features: FEATURES },
    { env: { [TEAMS_ENV]: "0" }, features: FEATURES },
    { env: { [TEAMS_ENV]: "1" }, features: FEATURES.filter((f) => f !== "teams") },
  ];
  for (const { env, features } of cases) {
    await using t = await startTestSession(mailSelf, teams(env, features));
    await t.session.prompt("note something", run());
    const tools = t.fake.requests[0]?.body?.tools?.map((tool) => tool.name) ?? [];
    assert.ok(!tools.includes("send_message") && !tools.includes("check_inbox"), tools.join());
    assert.doesNotMatch(JSON.stringify(t.fake.requests[0]?.body?.system), /teammate-message/);
    assert.deepEqual(
      t.events().filter((e) => e.type.startsWith("mail.") || e.type === "arrival.injected"),
      [],
    );
  }
});

Deno.test("teams are on through rein's own setting, and through a settings env block", async () => {
  for (
    const settings of [{ teams: { enabled: true } }, { env: { [TEAMS_ENV]: "true" } }]
  ) {
    await using t = await startTestSession(mailSelf, {
      recordSettings: {
        settings,
        flags: { permissionMode: "bypassPermissions" },
        env: {},
        features: FEATURES,
      },
    });
    await t.session.prompt("note something", run());
    assert.equal(ofType(t.events(), "mail.sent").length, 1, JSON.stringify(settings));
  }
});

Deno.test("a subagent whose type leaves send_message out is told how mail reaches it, not how to send", async () => {
  const script: FakeScriptFn = (request) => {
    if (firstUserText(request.body?.messages ?? []) === "explore") return message("Explored.");
    if (lastMessageText(request).includes("toolu_explore")) return message("Done.");
    return message([
      toolUse("toolu_explore", "task", {
        description: "explore",
        prompt: "explore",
        subagent_type: "Explore",
      }),
    ]);
  };
  await using t = await startTestSession(script, teams());
  await t.session.prompt("go", run());
  const child = t.fake.requests.find((r) => firstUserText(r.body?.messages ?? []) === "explore");
  const tools = child?.body?.tools?.map((tool) => tool.name) ?? [];
  assert.ok(!tools.includes("send_message"), tools.join());
  const system = JSON.stringify(child?.body?.system);
  assert.match(system, /You are \\"Explore@toolu_explore\\" among the agents of this session/);
  assert.match(system, /teammate-message/);
  assert.doesNotMatch(system, /Write to another agent/);
  assert.match(JSON.stringify(t.fake.requests[0]?.body?.system), /Write to another agent/);
});
