import type { ReinEvent } from "../../events/event_types.ts";
import { catalogSliceOf } from "../state/catalog.ts";
import type { State } from "../state/state.ts";
import { unblockedBy } from "../tasks/task_graph.ts";
import { type TaskGraph, taskGraphProjection, taskOf } from "../tasks/tasks_projection.ts";
import type { AnyTool, ToolResult } from "../tools/tool.ts";
import { teammateEntry } from "./idle_claim.ts";

/**
 * The mail that tells the lead of `session` that teammate `from` completed task `id`, and which
 * tasks that made ready to claim, decided on `graph` as it was before the completion (what
 * `complete_task` decides on). Its id is the call's, prefixed. Pure.
 */
export function completionMail(
  state: State,
  graph: TaskGraph,
  session: string,
  from: string,
  callId: string,
  id: number,
): ReinEvent | undefined {
  const lead = state.sessions.byId[session]?.mainAgent;
  const task = taskOf(graph, id);
  if (lead === undefined || task === undefined) return undefined;
  const ready = unblockedBy(graph, id);
  const content = `${from} completed task #${id} (${task.subject}). ` +
    (ready.length === 0
      ? "No task became ready to claim."
      : `Now ready to claim: ${ready.map((t) => `#${t.id} (${t.subject})`).join(", ")}.`);
  return {
    type: "mail.sent",
    data: {
      id: `task-completed-${callId}`,
      from,
      to: lead,
      recipients: [lead],
      content,
      summary: `completed #${id}`,
      kind: "message",
    },
  };
}

/**
 * `complete_task` for a teammate: what it decides under the log's lock, plus, when the task is
 * completed, mail to the session's lead naming the task and what it unblocked (in the same
 * append, so the lead is told exactly once). The tool for other agents is returned as it is.
 */
export function mailingCompleteTask(tool: AnyTool): AnyTool {
  return {
    ...tool,
    async run(input, context) {
      const result = await tool.run(input, context);
      const { decide } = result;
      if (decide === undefined) return result;
      const told = (state: State): ToolResult => {
        const graph = catalogSliceOf(state.catalog, taskGraphProjection);
        const decided = decide(state);
        const completed = decided.events?.find((event) => event.type === "task.completed");
        if (decided.isError || completed?.type !== "task.completed") return decided;
        if (teammateEntry(state, context.session, context.agent) === undefined) return decided;
        const mail = completionMail(
          state,
          graph,
          context.session,
          context.agent,
          context.callId,
          completed.data.id,
        );
        return mail === undefined ? decided : { ...decided, events: [...decided.events!, mail] };
      };
      return { ...told(context.view()), decide: told };
    },
  };
}
