import type { ReinEvent } from "../../events/event_types.ts";
import type { StageContext } from "../loop/stages.ts";
import { startBounds } from "../files/start_bounds.ts";
import type { Mechanism } from "../mechanism.ts";
import { sliceOf } from "../state/state.ts";
import { DATE_SOURCE, datesProjection } from "./date_projection.ts";
import { describeHead, GIT_HEAD_SOURCE, readGitHead } from "./git_branch.ts";

/**
 * The environment beyond what `session.started` records: the git branch, read when a session
 * starts or resumes (recorded with it), shown right after the environment block of the system
 * prompt; and the date, whose change past midnight the model hears as a `<system-reminder>`
 * before its next request (the system prompt keeps the start's date, so its cached prefix stays
 * put). The clock is read live and only a change is recorded; replay serves the recorded change.
 * Sessions recorded without settings (older logs) get neither, so their requests replay unchanged.
 */
export function createEnvironmentMechanism(clock: () => Date = () => new Date()): Mechanism {
  return {
    name: "environment",
    projection: datesProjection,
    stages: {
      beforeModel: (context) => dateReminder(context, clock),
    },
    readFiles: async (place) =>
      readGitHead(place.workspace, {
        credentials: (await startBounds(place)).credentials,
        onNotice: place.onNotice,
      }),
    sections(scope) {
      const head = scope.state.sessions.byId[scope.session]?.files
        .find((file) => file.source === GIT_HEAD_SOURCE);
      const described = head === undefined ? undefined : describeHead(head.text);
      return described === undefined
        ? []
        : [{ id: "git", stability: 0, text: `Git: ${described}` }];
    },
  };
}

/** The environment mechanism on the wall clock. */
export const environmentMechanism: Mechanism = createEnvironmentMechanism();

/** A reminder that the date is now another one than the model last heard, if it is. */
async function dateReminder(context: StageContext, clock: () => Date): Promise<ReinEvent[]> {
  const state = context.view();
  if (!state.sessions.byId[context.session]?.settings) return [];
  const known = sliceOf(state, datesProjection)[context.session];
  if (known === undefined) return [];
  const changed = await context.observeMaybe(
    "reminder.added",
    (data) => data.source === DATE_SOURCE,
    () => {
      const today = clock().toISOString().slice(0, 10);
      return Promise.resolve(
        today === known ? undefined : { source: DATE_SOURCE, text: `The date is now ${today}.` },
      );
    },
  );
  return changed === undefined ? [] : [{ type: "reminder.added", data: changed }];
}
