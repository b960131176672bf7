import type { WakeSource } from "../loop/wake_source.ts";
import type { Arrival } from "../loop/arrivals.ts";
import type { PoolScope } from "../tools/tool_pool.ts";
import {
  CRON_SOURCE,
  cronProjection,
  type CronSlice,
  firingKey,
  sessionCronIn,
} from "./cron_projection.ts";
import { CronScheduler } from "./cron_scheduler.ts";
import { CronTicker } from "./cron_ticker.ts";
import { scheduledText } from "./scheduled_text.ts";

/**
 * The firings waiting for the scope's agent, oldest first, with the text it reads them as (the
 * arrivals of a turn under way, or the prompt of one they wake). Pure.
 */
export function firingsWaiting(scope: PoolScope): Arrival[] {
  const slice = scope.state.extensions[cronProjection.key] as CronSlice | undefined;
  if (slice === undefined) return [];
  return sessionCronIn(slice, scope.session).pending
    .filter((firing) => firing.agent === scope.agent)
    .map((firing) => ({
      source: CRON_SOURCE,
      key: firingKey(firing),
      seq: firing.seq,
      text: scheduledText(firing),
    }));
}

/**
 * What cron wakes (`Mechanism.wake`): a firing that waits for an idle agent is taken up as a
 * prompt of its own (`[Scheduled] …`, marked `cron.delivered` by the prompt stage). Live, the
 * scheduler ticks on `clock` every `tickMs` while the runner drives the agent (during its turns
 * too: a firing then joins the turn's next request) and appends what is due; a run waits for no
 * firing. Pure but for `live`.
 */
export function cronWake(clock: () => Date): WakeSource {
  return {
    pending: (scope) =>
      firingsWaiting(scope).map(({ text, ...firing }) => ({ ...firing, prompt: text })),
    live({ store, state, scope, tickMs, onError }) {
      const scheduler = new CronScheduler({ store, state, clock, session: scope });
      const ticker = new CronTicker(scheduler, { everyMs: tickMs, onError });
      ticker.start();
      return { stop: () => ticker.stop() };
    },
  };
}
