import type { PendingCall } from "../state/conversation.ts";
import { closeCall } from "./close_call.ts";
import { validateToolInput } from "../tools/schema.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { TurnContext } from "./turn_context.ts";

/**
 * Run the model's calls in order. Each passes the gate stage (hooks, permissions), then its
 * intent is recorded and flushed, then it runs and its result is recorded with the tool's own
 * events in one batch. A call whose intent a dead process recorded, a call cut off by
 * max_tokens, a call after a cancel and a call the gate refuses are closed without running (see
 * `closeCall`).
 */
export async function runCalls(
  context: TurnContext,
  calls: readonly PendingCall[],
  signal: AbortSignal,
): Promise<void> {
  const { truncatedCallId: truncated, openIntents } = context.agentView();
  const started = new Set(openIntents.map((call) => call.id));
  const stage = context.stage(signal);
  for (const call of calls) {
    if (started.has(call.id)) {
      // Its intent is recorded and its result is not: a process died while it ran. It is never
      // run twice, whichever way the agent was reopened.
      const closed = closeCall(call, { outcome: "interrupted" });
      await context.append([context.event("tool.completed", closed)], { sync: false });
      continue;
    }
    if (call.id === truncated) {
      const closed = closeCall(call, { outcome: "not_run", why: "truncated" });
      await context.append([context.event("tool.completed", closed)], { sync: false });
      continue;
    }
    if (signal.aborted) {
      const closed = closeCall(call, { outcome: "cancelled" });
      await context.append([context.event("tool.completed", closed)], { sync: false });
      continue;
    }
    await context.settle();
    // The schema comes first (design.md §10): hooks and rules judge only calls that could run.
    const invalid = await invalidCall(call, context.deps.pool(context.scope()).byName);
    if (invalid !== undefined) {
      const closed = closeCall(call, { outcome: "not_run", why: "invalid", message: invalid });
      await context.append([context.event("tool.completed", closed)], { sync: false });
      continue;
    }
    const gate = await context.deps.stages.gateCall(stage, call);
    const decided = context.stamp(gate.events ?? []);
    if (!gate.run) {
      const closed = closeCall(call, { outcome: gate.outcome, reason: gate.reason });
      await context.append([...decided, context.event("tool.completed", closed)], {
        sync: false,
      });
      continue;
    }
    const input = gate.input === undefined ? call.input : gate.input;
    await context.append([
      ...decided,
      context.event("tool.requested", { callId: call.id, name: call.name, input }),
    ], { sync: true });
    await context.settle();
    const scope = context.scope();
    const toRun = input === call.input ? call : { ...call, input };
    const run = await context.deps.effects.runCall(toRun, context.deps.pool(scope).byName, {
      signal,
      session: context.session,
      agent: context.agent,
      callId: call.id,
      cwd: context.deps.cwd(scope),
      view: () => context.deps.state,
    });
    await context.append([...run.events, context.event("tool.completed", run.completed)], {
      sync: false,
    });
    await context.settle();
    await context.append(context.stamp(await context.deps.stages.afterCall(stage, toRun, run)), {
      sync: false,
    });
  }
}

/** Why a call cannot run as the model wrote it (no such tool, input off its schema), if so. */
async function invalidCall(
  call: PendingCall,
  tools: ReadonlyMap<string, AnyTool>,
): Promise<string | undefined> {
  const tool = tools.get(call.name);
  if (!tool) return `Unknown tool "${call.name}". Available tools: ${[...tools.keys()].join(", ")}`;
  const checked = await validateToolInput(tool, call.input);
  return checked.ok ? undefined : checked.message;
}
