/**
 * rein: an event-sourced coding-agent harness. The public API for embedding: the event log,
 * the event types, the projections, the session loop, replay, and the tool definitions.
 * @module
 */
export * from "./events/mod.ts";
export { type Conversation, evolveConversation, type PendingCall } from "./core/conversation.ts";
export {
  evolve,
  foldEvents,
  initialState,
  leadConversation,
  type SessionStatus,
  type SessionView,
  type State,
} from "./core/state.ts";
export {
  AgentSession,
  type RunOptions,
  type SessionDeps,
  type SessionSetup,
} from "./core/session.ts";
export type { TurnDeps, TurnResult } from "./core/turn.ts";
export {
  ModelCancelledError,
  type ModelClient,
  ModelError,
  type ModelReply,
} from "./core/model_client.ts";
export { createAnthropicModel } from "./core/anthropic_model.ts";
export { DEFAULT_RETRY_POLICY, retryDelay, type RetryPolicy } from "./core/retry.ts";
export {
  buildRequest,
  type MessagesRequest,
  requestDigest,
  type ToolDefinition,
} from "./core/request.ts";
export { buildSystemPrompt } from "./core/system_prompt.ts";
export { createToolExecutor, type ToolExecutor, type ToolOutcome } from "./core/tool_executor.ts";
export {
  type Divergence,
  eventsBySession,
  type ReplayResult,
  replaySession,
} from "./core/replay.ts";
export { createBaseTools } from "./core/tools/base_tools.ts";
export { toolDefinition, validateToolInput } from "./core/tools/tool_schema.ts";
export type { AnyTool, Tool, ToolCallContext, ToolResult } from "./core/tools/tool.ts";
