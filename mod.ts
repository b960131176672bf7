/**
 * rein: an event-sourced coding-agent harness. The public API for embedding: the event log and
 * its types, the projections, the composition root and its agent loops, the mechanism contract,
 * replay, and the tool contract with the base tools.
 * @module
 */
export * from "./events/mod.ts";
export {
  appendToolResult,
  type Conversation,
  evolveConversation,
  type PendingCall,
} from "./core/state/conversation.ts";
export {
  addUsage,
  agentOf,
  type AgentStatus,
  type AgentView,
  emptyUsage,
  mainAgentOf,
  type SessionsState,
  type SessionView,
  type UsageTotals,
} from "./core/state/sessions.ts";
export { evolve, foldEvents, initialState, sliceOf, type State } from "./core/state/state.ts";
export type { Projection } from "./core/state/projection.ts";
export {
  createHarness,
  DEFAULT_AGENT,
  type Harness,
  type HarnessEffects,
  type HarnessOptions,
  reinMechanisms,
} from "./core/harness.ts";
export type { Mechanism } from "./core/mechanism.ts";
export type { Arrival, ArrivalSource } from "./core/loop/arrivals.ts";
export { AgentLoop, type SessionSetup } from "./core/loop/agent_loop.ts";
export type { RunOptions, TurnResult } from "./core/loop/run_turn.ts";
export type { GateDecision, StageContext, StageHandlers, Stages } from "./core/loop/stages.ts";
export { closeCall, type Closing } from "./core/loop/close_call.ts";
export { forkHistory } from "./core/loop/fork_history.ts";
export {
  type MessagesRequest,
  ModelCancelledError,
  type ModelClient,
  ModelError,
  type ModelReply,
} from "./core/effects/model_client.ts";
export { createAnthropicModel } from "./core/effects/anthropic_model.ts";
export { liveEffects, type LiveEffectsOptions } from "./core/runner/live_effects.ts";
export { type ActiveRun, Runner } from "./core/runner/runner.ts";
export { DEFAULT_RETRY_POLICY, retryDelay, type RetryPolicy } from "./core/recovery/retry.ts";
export { assembleRequest } from "./core/request/assemble_request.ts";
export { buildRequest, requestDigest } from "./core/request/request_body.ts";
export { buildSystemPrompt, type SystemSection } from "./core/request/system_prompt.ts";
export { type CallRunner, executeCall, type ToolRun } from "./core/tools/executor.ts";
export {
  type PoolScope,
  type ToolFilter,
  type ToolPool,
  toolPool,
  type ToolSource,
} from "./core/tools/tool_pool.ts";
export {
  type Divergence,
  eventsBySession,
  type ReplayResult,
  replaySession,
} from "./core/replay/replay_session.ts";
export { createBaseTools } from "./core/tools/base_tools.ts";
export { type ToolDefinition, toolDefinition, validateToolInput } from "./core/tools/schema.ts";
export type { AnyTool, Tool, ToolCallContext, ToolKind, ToolResult } from "./core/tools/tool.ts";
export {
  DEFAULT_MODEL,
  type ModelInfo,
  MODELS,
  type ResolvedModel,
  resolveModel,
} from "./core/models/catalogue.ts";
export { costOf, totalCost } from "./core/models/cost.ts";
export { recoveryMechanism } from "./core/recovery/recovery.ts";
