import type { Envelope } from "../../events/event_types.ts";
import type { ReportContext } from "../mechanism.ts";
import {
  type RenderedLine,
  renderedLine,
  type RenderStyle,
  type ReportSection,
} from "../state/rendered_line.ts";
import type { State } from "../state/state.ts";
import { renderTodos } from "./render_todos.ts";
import { todosOf } from "./todos_of.ts";

/**
 * A written todo list as the REPL shows it, under the call that wrote it: one checkbox line per
 * item, the item in progress in bold, completed ones dim. Undefined for another mechanism's
 * event. Pure.
 */
export function renderTodoEvent(event: Envelope): readonly RenderedLine[] | undefined {
  if (event.type !== "todo.updated") return undefined;
  return renderTodos(event.data.todos).map((text, i): RenderedLine => [
    ...(i === 0 ? RESULT_MARK : INDENT),
    { text, style: itemStyle(text) },
  ]);
}

/**
 * The todo lists of a session's agents as `rein state` prints them: one section per agent with a
 * list (the session's main agent's titled `todos`, another's `todos (name)`). Pure.
 */
export function reportTodos(state: State, context: ReportContext): ReportSection[] {
  const view = state.sessions.byId[context.session];
  if (!view) return [];
  return Object.keys(view.agents).flatMap((agent) => {
    const todos = todosOf(state, context.session, agent);
    if (todos.length === 0) return [];
    const who = agent === view.mainAgent ? "" : ` (${agent})`;
    return [{ title: `todos${who}`, lines: renderTodos(todos).map((line) => renderedLine(line)) }];
  });
}

/** The `⎿` that sets a call's result under it, and the indent of the lines after it. */
const RESULT_MARK: RenderedLine = [
  { text: "  ", style: "plain" },
  { text: "⎿", style: "dim" },
  { text: "  ", style: "plain" },
];
const INDENT: RenderedLine = [{ text: "     ", style: "plain" }];

function itemStyle(line: string): RenderStyle {
  return line.startsWith("◐") ? "bold" : line.startsWith("☒") ? "dim" : "plain";
}
