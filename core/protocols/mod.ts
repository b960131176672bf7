/**
 * Protocols between the lead and its teammates (s16): shutdown and plan approval as requests
 * with an id and a state machine, folded from `protocol.*` events, answered under the log's lock
 * (one answer wins); the plan-approval gate; the shutdown timeout; Claude Code's `SendMessage`
 * protocol frames. The `teams` feature.
 *
 * @module
 */
export {
  type Caller,
  expireShutdown,
  planAnswer,
  recordStop,
  requestShutdown,
  type RequestShutdownInput,
  respondShutdown,
  type RespondShutdownInput,
  reviewPlan,
  type ReviewPlanInput,
  submitPlanEvents,
} from "./protocol_deciders.ts";
export { isProtocolFrame, PROTOCOL_FRAME_TYPES, protocolFrame } from "./protocol_frame.ts";
export { framedSendMessage } from "./framed_send_message.ts";
export {
  emptyProtocols,
  nextStatus,
  type ProtocolRequest,
  protocolsProjection,
  type ProtocolsSlice,
  type ProtocolStatus,
  type SessionProtocols,
} from "./protocol_projection.ts";
export {
  isLead,
  isTeammate,
  pendingRequests,
  planGated,
  sessionProtocols,
  unsettledShutdowns,
} from "./protocols_of.ts";
export {
  PROTOCOLS_SOURCE,
  protocolsMechanism,
  type ProtocolsOptions,
  reinjectPending,
} from "./protocols_mechanism.ts";
export { renderProtocolEvent, reportProtocols } from "./protocols_render.ts";
export { PLAN_GATE_REASON, planGate } from "./plan_gate.ts";
export { requestShutdownTool } from "./request_shutdown_tool.ts";
export { respondShutdownTool } from "./respond_shutdown_tool.ts";
export { reviewPlanTool } from "./review_plan_tool.ts";
export {
  DEFAULT_SHUTDOWN_TIMEOUT_MS,
  SHUTDOWN_TIMEOUT_ENV,
  type ShutdownOutcome,
  shutdownTimeoutMs,
  ShutdownWatcher,
  type ShutdownWatcherOptions,
} from "./shutdown_watcher.ts";
export { type SubmitPlanInput, submitPlanTool } from "./submit_plan_tool.ts";
