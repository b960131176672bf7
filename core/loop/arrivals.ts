import type { PoolScope } from "../tools/tool_pool.ts";
import type { TurnContext } from "./turn_context.ts";

/**
 * Input that reached an agent from outside its loop and waits for its next model call: a
 * background job's end, later a cron firing or a teammate's mail (design.md §11's external
 * arrivals). The event that brought it is in the log, appended under the log's lock by whoever
 * saw it happen; a mechanism lists what of it the agent has not been given yet.
 */
export interface Arrival {
  /** The mechanism it belongs to (`jobs`), whose projection stops listing it once injected. */
  source: string;
  /** What arrived, unique within the source (a job's id). */
  key: string;
  /** seq of the event that brought it: arrivals are put before the model in this order. */
  seq: number;
  /** What the model reads, as a block of the next user message. */
  text: string;
}

/**
 * The arrivals of an agent not yet put before the model, from one mechanism. Pure over the state
 * (replay calls it on the state the recorded run saw); an arrival is listed until the
 * mechanism's projection folds the `arrival.injected` of its source and key.
 */
export type ArrivalSource = (scope: PoolScope) => readonly Arrival[];

/** Every source's arrivals for `scope`, in log order (by seq, then source and key). Pure. */
export function pendingArrivals(
  scope: PoolScope,
  sources: readonly ArrivalSource[],
): Arrival[] {
  return sources.flatMap((source) => source(scope)).sort((a, b) =>
    a.seq - b.seq || compare(a.source, b.source) || compare(a.key, b.key)
  );
}

/**
 * Put the agent's pending arrivals before the model, if it has any: decided under the log's
 * lock on the state caught up with every other writer, and recorded as one `arrival.injected`
 * each, which the conversation fold adds to the next user message. Returns whether it recorded
 * any. `injected` collects what this request took in so far: an arrival still listed after its
 * injection (a projection that does not fold it) is an error, not a loop.
 *
 * The loop calls this right before it records a request (see `callModel`), and records the
 * request only on a state this found nothing in: an arrival appended meanwhile makes the loop
 * come back here and assemble again, so the log never has a `model.requested` with an arrival
 * before it that the request left out. Replay finds the same arrivals on the state the log has
 * just before the recorded injection or request.
 */
export async function injectArrivals(
  context: TurnContext,
  injected: Set<string>,
): Promise<boolean> {
  const pending = context.deps.arrivals(context.scope());
  if (pending.length === 0) return false;
  for (const { source, key } of pending) {
    if (injected.has(`${source}\0${key}`)) {
      throw new Error(
        `The arrival "${key}" of ${source} is still waiting after it was put before the model: ` +
          `its mechanism's projection must fold arrival.injected`,
      );
    }
  }
  const recorded = await context.deps.store.appendDecided(
    () =>
      context.deps.arrivals(context.scope()).map(({ source, key, seq, text }) =>
        context.event("arrival.injected", { source, key, seq, text })
      ),
    { sync: false },
  );
  for (const event of recorded) {
    if (event.type === "arrival.injected") injected.add(`${event.data.source}\0${event.data.key}`);
  }
  return true;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
