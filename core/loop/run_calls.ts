import type { PendingCall } from "../state/conversation.ts";
import type { ToolRun } from "../tools/executor.ts";
import { validateToolInput } from "../tools/schema.ts";
import type { AnyTool } from "../tools/tool.ts";
import { closeCall } from "./close_call.ts";
import type { StageContext } from "./stages.ts";
import type { TurnContext } from "./turn_context.ts";

/** A call that passed its checks and whose intent is recorded: it runs next. */
interface Admitted {
  call: PendingCall;
}

/**
 * Run the model's calls. Each passes the schema check and the gate stage (hooks, permissions),
 * then its intent is recorded and flushed, then it runs and its result is recorded with the
 * tool's own events in one batch, followed by the events of the after-call stage. Consecutive
 * read-only calls (reads, globs, greps) and `concurrent` ones (subagents) run at once, as Claude
 * Code runs them; their results are recorded in call order. A call whose intent a dead process
 * recorded is closed without running, unless the turn is `continuing` after a resume and its tool
 * is composite: then it runs again (its intent stands) and picks its child up where the log has
 * it. A call cut off by max_tokens, a call after a cancel and a call refused by its schema or the
 * gate are closed without running (see `closeCall`).
 */
export async function runCalls(
  context: TurnContext,
  calls: readonly PendingCall[],
  signal: AbortSignal,
  continuing = false,
): Promise<void> {
  const stage = context.stage(signal);
  let together: Admitted[] = [];
  for (const call of calls) {
    const tool = context.deps.pool(context.scope()).byName.get(call.name);
    const atOnce = tool?.readOnly === true || tool?.concurrent === true;
    if (!atOnce && together.length > 0) {
      await runAdmitted(context, together, signal, stage);
      together = [];
    }
    const admitted = await admit(context, call, signal, stage, continuing);
    if (admitted === undefined) continue;
    if (atOnce) together.push(admitted);
    else await runAdmitted(context, [admitted], signal, stage);
  }
  if (together.length > 0) await runAdmitted(context, together, signal, stage);
}

/**
 * Check a call and record its intent, or close it without running. Returns the call to run (its
 * input as a hook may have rewritten it), or undefined when it was closed.
 */
async function admit(
  context: TurnContext,
  call: PendingCall,
  signal: AbortSignal,
  stage: StageContext,
  continuing: boolean,
): Promise<Admitted | undefined> {
  const { truncatedCallId: truncated, openIntents } = context.agentView();
  const close = async (closed: ReturnType<typeof closeCall>, before = context.stamp([])) => {
    await context.append([...before, context.event("tool.completed", closed)], { sync: false });
    return undefined;
  };
  // Its intent is recorded and its result is not: a process died while it ran. It is never run
  // twice, whichever way the agent was reopened; a composite call of a continued turn is the
  // exception, since it runs no effect itself: its child resumes from the log.
  if (openIntents.some((open) => open.id === call.id)) {
    const tool = context.deps.pool(context.scope()).byName.get(call.name);
    if (continuing && tool?.kind === "composite" && !signal.aborted) return { call };
    return await close(closeCall(call, { outcome: "interrupted" }));
  }
  if (call.id === truncated) {
    return await close(closeCall(call, { outcome: "not_run", why: "truncated" }));
  }
  if (signal.aborted) return await close(closeCall(call, { outcome: "cancelled" }));
  await context.settle();
  // The schema comes first (design.md §10): hooks and rules judge only calls that could run.
  const invalid = await invalidCall(call, context.deps.pool(context.scope()).byName);
  if (invalid !== undefined) {
    return await close(closeCall(call, { outcome: "not_run", why: "invalid", message: invalid }));
  }
  const gate = await context.deps.stages.gateCall(stage, call);
  const decided = context.stamp(gate.events ?? []);
  if (!gate.run) {
    return await close(closeCall(call, { outcome: gate.outcome, reason: gate.reason }), decided);
  }
  const input = gate.input === undefined ? call.input : gate.input;
  // The intent is flushed before the call runs, so a call with effects is never run twice, even
  // after a power loss. A call the gate let run because it changes nothing (a read-only tool or
  // command) is harmless to run again: its intent is written, not flushed; the next flush (a
  // call with effects, the turn's end) takes it along.
  const changesNothing = decided.some((event) =>
    event.type === "permission.decided" && event.data.source.kind === "read_only"
  );
  await context.append([
    ...decided,
    context.event("tool.requested", { callId: call.id, name: call.name, input }),
  ], { sync: !changesNothing });
  return { call: input === call.input ? call : { ...call, input } };
}

/** Run admitted calls at once; record their results, then their after-call events, in order. */
async function runAdmitted(
  context: TurnContext,
  admitted: readonly Admitted[],
  signal: AbortSignal,
  stage: StageContext,
): Promise<void> {
  await context.settle();
  const scope = context.scope();
  const tools = context.deps.pool(scope).byName;
  const runs: ToolRun[] = await Promise.all(
    admitted.map(({ call }) =>
      context.deps.effects.runCall(call, tools, {
        signal,
        session: context.session,
        agent: context.agent,
        callId: call.id,
        cwd: context.deps.cwd(scope),
        view: () => context.deps.state,
        ...(context.sibling ? { sibling: context.sibling } : {}),
      })
    ),
  );
  // The results first, in call order (each with the tool's own events just before it), then
  // the after-call events: a result's events are then always next to it in the log.
  const recorded: ToolRun[] = [];
  for (const run of runs) recorded.push(await context.recordRun(run));
  for (const [i, { call }] of admitted.entries()) {
    await context.settle();
    const after = await context.deps.stages.afterCall(stage, call, recorded[i] as ToolRun);
    await context.append(context.stamp(after), { sync: false });
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
