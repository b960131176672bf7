/**
 * Claude Code–compatible command hooks: which commands an event selects, the JSON they read,
 * running them, and what their exit codes and output decide.
 *
 * @module
 */
export { checkMatcher, matcherSelects } from "./hook_matcher.ts";
export {
  type ClaudeToolCall,
  fromClaudeInput,
  hookMatchNames,
  toClaudeCall,
} from "./claude_tool_names.ts";
export {
  buildHookInput,
  HOOK_EVENT_NAMES,
  type HookEventData,
  type HookEventName,
  type HookInput,
  type HookInputBase,
  type HookSession,
  type SessionEndReason,
  type SessionStartSource,
} from "./hook_input.ts";
export {
  HOOK_DEFAULT_TIMEOUT_MS,
  HOOK_OUTPUT_MAX_CHARS,
  type HookCommandOptions,
  type HookRun,
  type HookRunEnding,
  runHookCommand,
} from "./run_hook_command.ts";
export {
  combineVerdicts,
  emptyVerdict,
  type HookPermissionDecision,
  type HookVerdict,
  interpretHookRun,
} from "./hook_verdict.ts";
export {
  type HookRunRecord,
  runHooks,
  type RunHooksOptions,
  type SelectedHook,
  selectHooks,
} from "./run_hooks.ts";
