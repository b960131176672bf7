import type { EventOrigin, NewEvent, ToolCompleted } from "../../events/event_types.ts";
import type { PendingCall } from "../state/conversation.ts";
import type { State } from "../state/state.ts";
import { LOOP_EVENT_TYPES } from "../state/loop_events.ts";
import { validateToolInput } from "./schema.ts";
import type { AnyTool, ToolCallContext, ToolResult } from "./tool.ts";

/** What running one call produced: the `tool.completed` payload and the tool's own events. */
export interface ToolRun {
  completed: ToolCompleted;
  /** Events recorded with the result, already stamped with the call's session and agent. */
  events: NewEvent[];
  /**
   * The run as decided under the log's lock on `state` (the tool's `ToolResult.decide`): what
   * the loop records instead of this one. Its duration is this run's.
   */
  decide?: (state: State) => ToolRun;
}

/**
 * How a call whose intent is recorded gets its result. Live: {@link executeCall}. Replay: an
 * effect tool's recorded result and events are served from the log; a decider tool runs again.
 * Never throws for tool failures.
 */
export type CallRunner = (
  call: PendingCall,
  tools: ReadonlyMap<string, AnyTool>,
  context: ToolCallContext,
) => Promise<ToolRun>;

/**
 * Run one call: look the tool up, validate the input against its schema, run it, time it with
 * `monotonicMs`. An unknown tool, a bad input and a tool that throws all come back as error
 * results worded for the model. The result is marked `cancelled` only when the tool says it
 * stopped for the cancel, so a write that finished as the user pressed Ctrl-C is recorded as done.
 */
export async function executeCall(
  call: PendingCall,
  tools: ReadonlyMap<string, AnyTool>,
  context: ToolCallContext,
  monotonicMs: () => number,
): Promise<ToolRun> {
  const started = monotonicMs();
  const finish = (result: ToolResult) =>
    toolRun(call, result, Math.round(monotonicMs() - started), context);
  const tool = tools.get(call.name);
  if (!tool) {
    const known = [...tools.keys()].join(", ");
    return finish({
      content: `Unknown tool "${call.name}". Available tools: ${known}`,
      isError: true,
    });
  }
  try {
    const input = await validateToolInput(tool, call.input);
    if (!input.ok) return finish({ content: input.message, isError: true });
    const result = await tool.run(input.value, context);
    const { decide } = result;
    const run = finish(checkedResult(call.name, result));
    if (decide === undefined) return run;
    // Whatever `decide` throws is the tool's failure, worded as the others.
    return {
      ...run,
      decide(state) {
        let decided: ToolResult;
        try {
          decided = checkedResult(call.name, decide(state));
        } catch (error) {
          decided = { content: `Tool ${call.name} failed: ${messageOf(error)}`, isError: true };
        }
        return toolRun(call, decided, run.completed.durationMs, context);
      },
    };
  } catch (error) {
    return finish({ content: `Tool ${call.name} failed: ${messageOf(error)}`, isError: true });
  }
}

/** `result` without its `decide`, or an error when it returns an event only the loop records. */
function checkedResult(name: string, result: ToolResult): ToolResult {
  const { decide: _decide, ...rest } = result;
  const owned = rest.events?.find((event) => LOOP_EVENT_TYPES.has(event.type));
  if (!owned) return rest;
  return {
    content: `Tool ${name} failed: it returned a ${owned.type} event, which only the loop records`,
    isError: true,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A tool's result as it is recorded: the completion payload and its events stamped. Pure. */
export function toolRun(
  call: PendingCall,
  result: ToolResult,
  durationMs: number,
  origin: EventOrigin,
): ToolRun {
  return {
    completed: {
      callId: call.id,
      name: call.name,
      content: result.content,
      ...(result.blocks ? { blocks: result.blocks } : {}),
      isError: result.isError ?? false,
      durationMs,
      ...(result.cancelled ? { outcome: "cancelled" as const } : {}),
      ...(result.file ? { file: result.file } : {}),
    },
    events: (result.events ?? []).map((event) =>
      ({ ...event, session: origin.session, agent: origin.agent }) as NewEvent
    ),
  };
}
