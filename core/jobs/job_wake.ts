import type { ArrivalSource } from "../loop/arrivals.ts";
import type { WakeSource } from "../loop/wake_source.ts";
import { jobsOf } from "./jobs_of.ts";

/**
 * What background jobs wake (`Mechanism.wake`): an idle agent one of whose jobs ended (its
 * `<task-notification>`, one of `arrivals`, not yet put before the model) runs a turn on it, and a
 * run waits for the jobs it started that still run (`rein -p`; each ends by its timeout at the
 * latest). Pure.
 */
export function jobWake(arrivals: ArrivalSource): WakeSource {
  return {
    pending: (scope) => arrivals(scope).map(({ source, key, seq }) => ({ source, key, seq })),
    awaited: (scope, afterSeq) =>
      jobsOf(scope.state, scope.session)
        .filter((job) => job.end === null && job.agent === scope.agent && job.startedSeq > afterSeq)
        .map((job) => ({
          kind: "background job",
          label: `${job.id} (${job.description ?? job.command})`,
        })),
  };
}
