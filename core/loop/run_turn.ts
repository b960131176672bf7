import type { TurnEndReason } from "../../events/event_types.ts";
import type { RunOptions, TurnResult } from "../tools/sibling_agent.ts";
import { ModelError } from "../effects/model_client.ts";
import { awaitsModel } from "../state/conversation.ts";
import { callModel, failureMessage } from "./call_model.ts";
import { runCalls } from "./run_calls.ts";
import type { TurnContext } from "./turn_context.ts";

export type { RunOptions, TurnResult } from "../tools/sibling_agent.ts";

/**
 * The agent loop (s01), as named stages: run the pending calls; before each model call, the
 * `beforeModel` stage; call the model (with recovery) and record the answer; when it holds
 * `tool_use` blocks, run them and go round again (their presence is the continuation signal, not
 * `stop_reason`); when it does not, the `afterModel` stage may continue the turn. The turn ends
 * with `turn.ended`, then the `turnEnded` stage.
 */
export async function runTurn(
  context: TurnContext,
  options: RunOptions & { continuing: boolean },
): Promise<TurnResult> {
  const { signal, maxTurns } = options;
  const { stages } = context.deps;
  const stage = context.stage(signal);
  if (!options.continuing) {
    const roundsBefore = context.agentView().rounds;
    const budget = options.maxBudgetUsd;
    await context.append([context.event("turn.started", {
      roundsBefore,
      maxTurns,
      ...(budget === undefined ? {} : { maxBudgetUsd: budget }),
    })], { sync: false });
  }
  let rounds = 0;
  let continued = 0;
  let ending = false;
  const end = async (reason: TurnEndReason, message?: string): Promise<TurnResult> => {
    ending = true;
    const total = context.agentView().rounds;
    const data = message === undefined
      ? { reason, rounds: total }
      : { reason, rounds: total, message };
    await context.append([context.event("turn.ended", data)], { sync: true });
    const result = message === undefined ? { reason, rounds } : { reason, rounds, message };
    await context.settle();
    await context.append(context.stamp(await stages.turnEnded(stage, result)), { sync: false });
    return result;
  };
  try {
    return await loop();
  } catch (error) {
    // A stage handler or an effect failed: the turn ends as failed, so the log says so and a
    // reopened session does not take it for a crash. An error while ending (the log itself
    // failed) goes up as it is.
    if (ending) throw error;
    // A stage that waited (`waitFor`) and was cancelled rejects with the cancel's reason.
    if (signal.aborted && error === signal.reason) {
      return await end("cancelled", "Cancelled by the user");
    }
    const detail = error instanceof Error ? error.message : String(error);
    return await end("failed", `Stopped by an internal error: ${detail}`);
  }

  async function loop(): Promise<TurnResult> {
    while (true) {
      const pending = context.agentView().pendingCalls;
      if (pending.length > 0) {
        await runCalls(context, pending, signal, options.continuing);
        await context.settle();
        const stop = await stages.stopAfterCalls(stage, pending);
        if (stop !== undefined) return await end("completed", stop);
        continue;
      }
      if (signal.aborted) return await end("cancelled", "Cancelled by the user");
      if (!awaitsModel(context.agentView())) return await end("completed");
      if (maxTurns !== null && rounds >= maxTurns) {
        return await end("max_turns", `Stopped after ${maxTurns} model turns (--max-turns)`);
      }
      const budget = options.maxBudgetUsd;
      if (budget !== undefined) {
        const spent = Object.entries(context.agentView().turnUsageByModel)
          .reduce((sum, [model, usage]) => sum + context.deps.price(model, usage), 0);
        if (spent >= budget) {
          return await end(
            "max_budget",
            `Stopped at the budget of $${budget} (--max-budget-usd): $${spent.toFixed(4)} spent`,
          );
        }
      }
      await context.settle();
      await context.append(context.stamp(await stages.beforeModel(stage)), { sync: false });
      const outcome = await callModel(context, signal, options.onText);
      if (outcome === "cancelled") return await end("cancelled", "Cancelled by the user");
      if (outcome instanceof ModelError) return await end("failed", failureMessage(outcome));
      rounds += 1;
      // The folded answer decides, not the raw one: calls the fold left out (an unusable name,
      // a repeated id) are not run, and asking again would send the same request.
      if (context.agentView().pendingCalls.length > 0) continue;
      await context.settle();
      const after = await stages.afterModel(stage, outcome, continued);
      await context.append(context.stamp(after.events), { sync: false });
      if (!after.continueTurn) return await end("completed");
      continued += 1;
    }
  }
}
