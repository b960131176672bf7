/**
 * Autonomous teammates (s17): the idle cycle (an idle teammate claims a ready task by itself, as
 * an arrival decided under the log's lock), the idle timeout, release_task and task roles, mail
 * to the lead on completion, and a teammate's identity after a compaction.
 *
 * @module
 */
export { autonomyMechanism, type AutonomyOptions } from "./autonomy_mechanism.ts";
export { AUTONOMY_FEATURE, claimArrivals, claimWake } from "./claim_arrival.ts";
export { completionMail, mailingCompleteTask } from "./completion_mail.ts";
export { identityReminder, identityText } from "./identity_reminder.ts";
export {
  AUTONOMY_SOURCE,
  claimEvents,
  claimKey,
  claimText,
  heldTasks,
  type IdleClaim,
  idleClaim,
  isIdleTeammate,
  roleMatches,
  teammateEntry,
} from "./idle_claim.ts";
export { type IdleHost, idleWait } from "./idle_cycle.ts";
export {
  DEFAULT_IDLE_TIMEOUT_MS,
  IDLE_TIMEOUT_ENV,
  idleStop,
  idleTimeoutMs,
  isIdleRelease,
} from "./idle_timeout.ts";
