import assert from "node:assert/strict";
import type { Envelope, TodoItem } from "../events/event_types.ts";
import { replaySession } from "../core/replay/replay_session.ts";
import {
  type FakeRequestBody,
  message,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-api03-todos-test-0123456789";

const PLAN: TodoItem[] = [
  { content: "Find the config", status: "in_progress", activeForm: "Finding the config" },
  { content: "Read it", status: "pending", activeForm: "Reading it" },
];
const PROGRESS: TodoItem[] = [
  { content: "Find the config", status: "completed", activeForm: "Finding the config" },
  { content: "Read it", status: "in_progress", activeForm: "Reading it" },
];

/** A headless run of `rein agent -p` against the fake server, and its log as envelopes. */
async function runHeadless(script: Parameters<typeof startFakeAnthropic>[0]["script"]) {
  await using fake = await startFakeAnthropic({ script });
  await using ws = await tempWorkspace();
  const result = await runCli(["agent", "-p", "look at the config", "--workspace", ws.path], {
    env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY },
  });
  assert.equal(result.code, 0, result.stderr);
  const events = await readLogLines(`${ws.path}/.rein/events.jsonl`) as unknown as Envelope[];
  return { bodies: fake.requests.map((r) => r.body as FakeRequestBody), events };
}

/** The text blocks of a request's last message (the user message the model answers). */
function lastUserTexts(body: FakeRequestBody): string[] {
  const last = body.messages.at(-1);
  assert.equal(last?.role, "user");
  const content = typeof last.content === "string" ? [] : last.content;
  return content.flatMap((block) => block.type === "text" ? [String(block.text)] : []);
}

function glob(id: string) {
  return message([toolUse(id, "glob", { pattern: "**/*.json" })]);
}

Deno.test("a todo list left alone for 3 rounds is recalled in the next user message, and replays", async () => {
  const { bodies, events } = await runHeadless([
    message([toolUse("t1", "todo_write", { todos: PLAN })]),
    message([toolUse("t2", "todo_write", { todos: PROGRESS })]),
    glob("g1"),
    glob("g2"),
    glob("g3"),
    message("The config is empty."),
  ]);
  assert.equal(bodies.length, 6);
  assert.ok(bodies[0]?.tools?.some((tool) => tool.name === "todo_write"));
  const todos = events.filter((e) => e.type === "todo.updated").map((e) => e.data);
  assert.deepEqual(todos, [{ todos: PLAN }, { todos: PROGRESS }]);

  for (const body of bodies.slice(0, 5)) {
    assert.ok(!lastUserTexts(body).some((text) => text.includes("<system-reminder>")));
  }
  const reminder = lastUserTexts(bodies[5]!).find((text) => text.includes("<system-reminder>"));
  assert.ok(reminder, "the 4th request after the update carries no reminder");
  assert.match(reminder, /not been updated for 3 model rounds/);
  assert.match(reminder, /1\. \[completed\] Find the config\n2\. \[in_progress\] Read it/);
  const reminders = events.filter((e) => e.type === "reminder.added");
  assert.deepEqual(reminders.map((e) => e.type === "reminder.added" && e.data.source), ["todos"]);

  // The list never enters the system prompt: the cached prefix is the same in every request.
  const system = JSON.stringify(bodies[0]?.system);
  assert.ok(bodies.every((body) => JSON.stringify(body.system) === system));
  assert.ok(!system.includes("Find the config"));

  const replayed = await replaySession(events);
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
  assert.equal(replayed.matched, events.length);
});

Deno.test("a todo list with two items in progress gets an error result and records no event", async () => {
  const both = PLAN.map((todo) => ({ ...todo, status: "in_progress" }));
  const { bodies, events } = await runHeadless([
    message([toolUse("t1", "todo_write", { todos: both })]),
    message("I will fix the list."),
  ]);
  const result = bodies[1]?.messages.at(-1)?.content;
  assert.ok(Array.isArray(result));
  assert.equal(result[0]?.type, "tool_result");
  assert.equal(result[0]?.is_error, true);
  assert.match(
    JSON.stringify(result[0]?.content),
    /The todo list was not saved: 2 items are in_progress/,
  );
  assert.equal(events.some((e) => e.type === "todo.updated"), false);
  const replayed = await replaySession(events);
  assert.equal(replayed.divergence, null, JSON.stringify(replayed.divergence));
});
