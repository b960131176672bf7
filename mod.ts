/**
 * rein: an event-sourced coding-agent harness. The public API for embedding: the event log,
 * the event types, the projections, the session loop, replay, and the tool definitions.
 * @module
 */
export * from "./events/mod.ts";
export {
  type Conversation,
  evolveConversation,
  type PendingCall,
} from "./core/state/conversation.ts";
export {
  evolve,
  foldEvents,
  initialState,
  leadConversation,
  type SessionStatus,
  type SessionView,
  type State,
} from "./core/state/state.ts";
export {
  AgentSession,
  type RunOptions,
  type SessionDeps,
  type SessionSetup,
} from "./core/loop/agent_loop.ts";
export type { TurnDeps, TurnResult } from "./core/loop/run_turn.ts";
export {
  ModelCancelledError,
  type ModelClient,
  ModelError,
  type ModelReply,
} from "./core/effects/model_client.ts";
export { createAnthropicModel } from "./core/effects/anthropic_model.ts";
export { DEFAULT_RETRY_POLICY, retryDelay, type RetryPolicy } from "./core/recovery/retry.ts";
export {
  buildRequest,
  type MessagesRequest,
  requestDigest,
  type ToolDefinition,
} from "./core/request/request_body.ts";
export { buildSystemPrompt } from "./core/request/system_prompt.ts";
export { createToolExecutor, type ToolExecutor, type ToolOutcome } from "./core/tools/executor.ts";
export {
  type Divergence,
  eventsBySession,
  type ReplayResult,
  replaySession,
} from "./core/replay/replay_session.ts";
export { createBaseTools } from "./core/tools/base_tools.ts";
export { toolDefinition, validateToolInput } from "./core/tools/schema.ts";
export type { AnyTool, Tool, ToolCallContext, ToolResult } from "./core/tools/tool.ts";
