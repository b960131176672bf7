import type { ReinEvent } from "../../events/event_types.ts";
import type { StageContext } from "../loop/stages.ts";
import type { Mechanism } from "../mechanism.ts";
import { renderTodoEvent, reportTodos } from "./todos_render.ts";
import { sliceOf } from "../state/state.ts";
import { todoReminder } from "./todo_reminder.ts";
import { renderTodos } from "./render_todos.ts";
import { createTodoWriteTool } from "./todo_write.ts";
import { agentTodosIn, TODOS_SOURCE, todosProjection } from "./todos_projection.ts";

/**
 * Todos (s05): the `todo_write` tool, each agent's list as a projection, and a reminder before a
 * model call when the list has unfinished items and has been left alone for a few rounds (a
 * `reminder.added`, which reaches the model in the next user message: the list is never in the
 * system prompt, so the cached prefix stays put).
 */
export function todosMechanism(): Mechanism {
  const tool = createTodoWriteTool();
  return {
    name: "todos",
    // Sessions recorded before rein had todos (no settings snapshot) replay without todo_write.
    feature: "todos",
    render: renderTodoEvent,
    report: reportTodos,
    projection: todosProjection,
    tools: () => [tool],
    stages: {
      beforeModel: (context) => Promise.resolve(remind(context)),
      // A compaction summarised the calls that wrote the list: it is put back as it is now.
      afterCompact: (context) => Promise.resolve(reinject(context)),
    },
  };
}

function reinject(context: StageContext): ReinEvent[] {
  const slice = sliceOf(context.view(), todosProjection);
  const { todos } = agentTodosIn(slice, context.session, context.agent);
  if (todos.length === 0) return [];
  const text = "Your todo list, as it stands after the compaction (keep it current with " +
    `todo_write):\n${renderTodos(todos).join("\n")}`;
  return [{ type: "reminder.added", data: { source: TODOS_SOURCE, text } }];
}

function remind(context: StageContext): ReinEvent[] {
  const slice = sliceOf(context.view(), todosProjection);
  const text = todoReminder(agentTodosIn(slice, context.session, context.agent));
  return text === undefined
    ? []
    : [{ type: "reminder.added", data: { source: TODOS_SOURCE, text } }];
}
