import type { Envelope } from "../../events/event_types.ts";
import type { Harness } from "../harness.ts";
import type { AgentLoop } from "../loop/agent_loop.ts";
import type { RunOptions } from "../tools/sibling_agent.ts";
import type { AgentTape } from "./agent_tape.ts";

/** An agent's loops as a replay drives them, by agent. */
export interface ReplayLoops {
  live: Harness;
  loops: Map<string, AgentLoop>;
}

/**
 * Drive `agent`'s loop with the recorded `input` that starts its run, as the recorded process
 * did: start the session, prompt, end, compact, switch the model or resume. Returns false when
 * the input is none of those for the loops as they are (the agent was idle where the log has
 * it act): the caller reports the divergence.
 */
export async function driveInput(
  { live, loops }: ReplayLoops,
  agent: string,
  tape: AgentTape,
  input: Envelope | undefined,
  options: RunOptions,
): Promise<boolean> {
  const loopOf = (session: string): AgentLoop => {
    const loop = loops.get(agent) ?? live.openSession(session, agent);
    loops.set(agent, loop);
    return loop;
  };
  if (input?.type === "session.started" && loops.size === 0) {
    const { startedAt: _startedAt, ...setup } = input.data;
    loops.set(agent, await live.startSession({ id: input.session, ...setup }, agent));
  } else if (input?.type === "user.prompted" && loops.size > 0) {
    await loopOf(input.session).prompt(input.data.text, { ...options, ...tape.limitsAfter(input) });
  } else if (input?.type === "session.ended" && loops.size > 0) {
    await loopOf(input.session).end(input.data.reason, options.signal);
  } else if (
    (input?.type === "compaction.started" || input?.type === "compaction.failed") &&
    loops.size > 0
  ) {
    await loopOf(input.session).compact(input.data.focus, options.signal);
  } else if (input?.type === "arrival.injected" && loops.size > 0) {
    // Something reached the idle agent (a job's end) and it woke to it.
    await loopOf(input.session).wake({ ...options, ...tape.limitsAfter(input) });
  } else if (input?.type === "model.switched" && loops.size > 0) {
    await loopOf(input.session).switchModel(input.data.model, input.data.maxTokens);
  } else if (input?.type === "session.resumed" && loops.has(agent)) {
    const prompt = input.data.withPrompt ? tape.promptAfter(input) : undefined;
    const loop = loops.get(agent) as AgentLoop;
    const { maxTurns, maxBudgetUsd, settings, files } = input.data;
    await loop.resume(input.data.how, prompt, {
      ...options,
      maxTurns,
      ...(maxBudgetUsd === undefined ? {} : { maxBudgetUsd }),
      ...(settings === undefined ? {} : { settings }),
      ...(files === undefined ? {} : { files }),
    });
  } else return false;
  return true;
}
