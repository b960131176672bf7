import assert from "node:assert/strict";
import type { Envelope } from "../events/event_types.ts";
import { type FakeScriptFn, message, text, toolUse } from "../testing/fake_anthropic.ts";
import { lastUserText } from "../testing/scenarios.ts";
import { startTestSession, type TestSession } from "../testing/test_session.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import { CronScheduler } from "../core/cron/cron_scheduler.ts";
import { scheduledText } from "../core/cron/scheduled_text.ts";

const run = () => ({ signal: new AbortController().signal, maxTurns: null });

/** Schedules "check the deploy" every minute when asked, answers scheduled prompts. */
const script: FakeScriptFn = (request) => {
  const last = lastUserText(request.body);
  const results = JSON.stringify(request.body?.messages.at(-1)?.content ?? "");
  if (last.startsWith("remind me") && !results.includes("tool_result")) {
    return message([
      text("Scheduling it."),
      toolUse("call_1", "schedule_cron", { cron: "* * * * *", prompt: "check the deploy" }),
    ]);
  }
  if (last.startsWith("list") && !results.includes("tool_result")) {
    return message([toolUse("call_2", "list_crons", {})]);
  }
  return message(`Done: ${last}`);
};

/** A session recorded as the CLI records one, on a clock the test moves. */
async function cronSession(clock: { now: Date }): Promise<TestSession> {
  return await startTestSession(script, { recordSettings: {}, clock: () => clock.now });
}

function schedulerOf(t: TestSession, clock: { now: Date }) {
  return new CronScheduler({
    store: t.harness.store,
    state: t.harness.state,
    clock: () => clock.now,
    session: () => ({ session: t.session.id, agent: t.session.agent }),
  });
}

const types = (events: readonly Envelope[]) => events.map((event) => event.type);

Deno.test("schedule_cron records its reading before the intent and its job with the result", async () => {
  const clock = { now: new Date("2026-11-23T10:00:30Z") };
  await using t = await cronSession(clock);
  await t.session.prompt("remind me every minute to check the deploy", run());
  const events = t.events();
  const read = events.findIndex((e) => e.type === "cron.read");
  assert.deepEqual(types(events.slice(read, read + 5)), [
    "cron.read",
    "permission.decided",
    "tool.requested",
    "cron.scheduled",
    "tool.completed",
  ]);
  const reading = events[read];
  assert.deepEqual(reading?.type === "cron.read" && reading.data, {
    callId: "call_1",
    now: "2026-11-23T10:00:30.000Z",
    timeZone: reading?.type === "cron.read" ? reading.data.timeZone : "",
    jobs: [],
  });
  const job = Object.values(t.harness.state.catalog.cron.jobs)[0];
  assert.equal(job?.scheduledAt, "2026-11-23T10:00:30.000Z");
  assert.equal(job?.session, t.session.id);
  const result = await replaySession(t.events());
  assert.equal(result.divergence, null, JSON.stringify(result.divergence));
});

Deno.test("a firing while idle runs as a prompt of its own, once per minute, and replays", async () => {
  const clock = { now: new Date("2026-11-23T10:00:30Z") };
  await using t = await cronSession(clock);
  await t.session.prompt("remind me every minute to check the deploy", run());
  const scheduler = schedulerOf(t, clock);
  clock.now = new Date("2026-11-23T10:00:59.999Z");
  assert.deepEqual(await scheduler.tick(), []);
  for (const minute of ["10:01", "10:02"]) {
    clock.now = new Date(`2026-11-23T${minute}:00.500Z`);
    const [fired, ...more] = await scheduler.tick();
    assert.equal(more.length, 0);
    assert.equal(fired?.type === "cron.fired" && fired.data.minute, `2026-11-23T${minute}:00.000Z`);
    assert.deepEqual(await scheduler.tick(), [], "a minute fires once");
    const [firing] = scheduler.pending();
    assert.ok(firing);
    await t.session.prompt(scheduledText(firing), run());
    assert.deepEqual(scheduler.pending(), []);
  }
  const delivered = t.events().filter((e) =>
    e.type === "cron.delivered" || e.type === "user.prompted"
  );
  assert.deepEqual(delivered.map((e) => e.type === "user.prompted" ? e.data.text : e.type), [
    "remind me every minute to check the deploy",
    "cron.delivered",
    "[Scheduled] check the deploy",
    "cron.delivered",
    "[Scheduled] check the deploy",
  ]);
  assert.equal(t.session.lastText, "Done: [Scheduled] check the deploy");
  const result = await replaySession(t.events());
  assert.equal(result.divergence, null, JSON.stringify(result.divergence));
  assert.equal(result.matched, t.events().length);
});

Deno.test("list_crons lists what the session sees, and replays", async () => {
  const clock = { now: new Date("2026-11-23T10:00:30Z") };
  await using t = await cronSession(clock);
  await t.session.prompt("remind me every minute to check the deploy", run());
  clock.now = new Date("2026-11-23T10:03:10Z");
  await t.session.prompt("list them", run());
  const listed = t.events().findLast((e) => e.type === "tool.completed");
  assert.match(
    listed?.type === "tool.completed" ? listed.data.content : "",
    /^1 cron job \(now 2026-11-23T10:03:10.000Z\):\n- [0-9a-f]{8}: "\* \* \* \* \*" .* next run at 2026-11-23T10:04:00.000Z$/,
  );
  const result = await replaySession(t.events());
  assert.equal(result.divergence, null, JSON.stringify(result.divergence));
});
