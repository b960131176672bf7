/**
 * Todos (s05): the `todo_write` tool, each agent's list as a projection of the log, the reminder
 * when a list is left alone, and the list as checkbox lines for the REPL and `rein state`.
 *
 * @module
 */
export { checkTodos } from "./check_todos.ts";
export { renderTodos } from "./render_todos.ts";
export { TODO_REMINDER_ROUNDS, todoReminder } from "./todo_reminder.ts";
export {
  createTodoWriteTool,
  TODO_WRITE_INPUT_SCHEMA,
  type TodoWriteInput,
  writeTodos,
} from "./todo_write.ts";
export { todosMechanism } from "./todos_mechanism.ts";
export { todosOf } from "./todos_of.ts";
export {
  type AgentTodos,
  agentTodosIn,
  TODOS_SOURCE,
  todosProjection,
  type TodosSlice,
} from "./todos_projection.ts";
