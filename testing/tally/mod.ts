/**
 * The tally: a toy mechanism, written as a mechanism folder of core/ is, to show what adding one
 * takes (see README.md). Copied to core/tally/, with tally_payloads.ts as events/payloads/tally.ts,
 * it joins rein with two lines in events/event_types.ts and two in core/harness.ts
 * (tests/toy_mechanism_e2e_test.ts does that in a worktree and runs it).
 *
 * @module
 */
export { TALLY_ADD_INPUT_SCHEMA, type TallyAddInput, tallyAddTool } from "./tally_add.ts";
export { tallyEnabled } from "./tally_enabled.ts";
export { TALLY_EVENT_TYPES } from "./tally_extension.ts";
export {
  createTallyMechanism,
  TALLY_LIMIT,
  tallyEverywhere,
  tallyMechanism,
  type TallyOptions,
} from "./tally_mechanism.ts";
export {
  TALLY_EVENTS,
  type TallyAdded,
  type TallyAsked,
  type TallyEvents,
} from "./tally_payloads.ts";
export { TALLY_PEEK_INPUT_SCHEMA, type TallyPeekInput, tallyPeekTool } from "./tally_peek.ts";
export {
  type SessionTally,
  TALLY_SOURCE,
  type TallyAsk,
  tallyAsks,
  tallyOf,
  tallyProjection,
  type TallySlice,
} from "./tally_projection.ts";
export { renderTally } from "./tally_render.ts";
export { type TallyOn, tallyWake } from "./tally_wake.ts";
export {
  type WorkspaceTally,
  workspaceTallyOf,
  workspaceTallyProjection,
} from "./workspace_tally.ts";
