import assert from "node:assert/strict";
import type { Envelope, TodoItem } from "../../events/event_types.ts";
import { eventFactory, respondedData, startedData } from "../../testing/event_factory.ts";
import type { StageContext } from "../loop/stages.ts";
import { testStageContext } from "../../testing/stage_context.ts";
import { foldEvents, type State } from "../state/state.ts";
import { todosMechanism } from "./todos_mechanism.ts";
import { todosProjection } from "./todos_projection.ts";
import { hasFeature } from "../settings/session_features.ts";

const SETTINGS = { sources: [], flags: {}, home: "/home/u", interactive: false };
const OPEN: TodoItem[] = [
  { content: "Fix the bug", status: "in_progress", activeForm: "Fixing the bug" },
];

function stageContext(state: State): StageContext {
  return testStageContext(state);
}

/** Session s1, recorded with settings, whose list was written at round 1 and `more` rounds ago. */
function writtenThenRounds(
  more: number,
  extra: (e: ReturnType<typeof eventFactory>) => Envelope[] = () => [],
) {
  const e = eventFactory();
  return foldEvents([
    e("session.started", startedData({ settings: SETTINGS })),
    e("model.responded", respondedData([])),
    e("todo.updated", { todos: OPEN }),
    ...Array.from({ length: more }, () => e("model.responded", respondedData([]))),
    ...extra(e),
  ], [todosProjection]);
}

Deno.test("todo_write is in the pool of sessions recorded with settings only", () => {
  const e = eventFactory();
  const mechanism = todosMechanism();
  const names = (state: State) =>
    mechanism.tools?.({ state, session: "s1", agent: "lead" }).map((tool) => tool.name);
  const withSettings = foldEvents([e("session.started", startedData({ settings: SETTINGS }))]);
  assert.deepEqual(names(withSettings), ["todo_write"]);
  // The harness activates the mechanism only where the session has its feature: a session
  // recorded without settings (before rein had todos) has none.
  assert.equal(mechanism.feature, "todos");
  assert.equal(hasFeature(withSettings, "s1", "todos"), true);
  const without = foldEvents([e("session.started", startedData())]);
  assert.equal(hasFeature(without, "s1", "todos"), false);
});

Deno.test("before the model call, a list left alone for 3 rounds adds a todos reminder", async () => {
  const mechanism = todosMechanism();
  assert.deepEqual(await mechanism.stages?.beforeModel?.(stageContext(writtenThenRounds(2))), []);
  const [reminder, ...rest] =
    await mechanism.stages?.beforeModel?.(stageContext(writtenThenRounds(3))) ?? [];
  assert.equal(rest.length, 0);
  assert.equal(reminder?.type, "reminder.added");
  assert.equal(reminder.type === "reminder.added" && reminder.data.source, "todos");
  assert.match(reminder.type === "reminder.added" ? reminder.data.text : "", /\[in_progress\] Fix/);
});

Deno.test("once reminded, the stage adds nothing until 3 more rounds pass", async () => {
  const mechanism = todosMechanism();
  const reminded = writtenThenRounds(3, (e) => [
    e("reminder.added", { source: "todos", text: "…" }),
    e("model.responded", respondedData([])),
  ]);
  assert.deepEqual(await mechanism.stages?.beforeModel?.(stageContext(reminded)), []);
});
