import type { PermissionMode } from "../settings/mod.ts";
import { toClaudeCall } from "./claude_tool_names.ts";

/** The hook events rein runs, in the order Claude Code documents them. */
export const HOOK_EVENT_NAMES = [
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "UserPromptSubmit",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "SessionStart",
  "SessionEnd",
  "PreCompact",
  "PostCompact",
  "TaskCreated",
  "TaskCompleted",
  "TeammateIdle",
  "WorktreeCreate",
  "WorktreeRemove",
] as const;

/** A hook event rein runs. */
export type HookEventName = typeof HOOK_EVENT_NAMES[number];

/** Why a session started: Claude Code's SessionStart sources. */
export type SessionStartSource = "startup" | "resume" | "compact" | "fork";

/** Why a session ended: Claude Code's SessionEnd reasons. */
export type SessionEndReason = "clear" | "logout" | "prompt_input_exit" | "other";

/** What every hook is told about the session. */
export interface HookSession {
  sessionId: string;
  /** The session's Claude Code–shaped transcript, written from the log (`claude_transcript.ts`). */
  transcriptPath: string;
  /** The workspace root: rein's relative tool paths start here. */
  cwd: string;
  permissionMode: PermissionMode;
  /** The user prompt whose turn this is (the same for every hook of the turn). */
  promptId?: string;
  /** The session's effort level (`--effort`, `effortLevel`), when thinking is on. */
  effort?: string;
}

/** The event a hook runs for, in rein's terms; tools by rein's name and input. */
export type HookEventData =
  | { event: "PreToolUse"; tool: string; input: Record<string, unknown>; toolUseId: string }
  | {
    /** The gate is about to ask a person about a call. */
    event: "PermissionRequest";
    tool: string;
    input: Record<string, unknown>;
    toolUseId: string;
    /** The rule "always" would save (`Bash(npm test *)`). */
    suggestion: string;
  }
  | {
    /** A subagent starts (a `task` call) or a teammate its first turn: its id and type. */
    event: "SubagentStart";
    agentId: string;
    agentType: string;
    /** The teammate's name, for a teammate. */
    teammateName?: string;
  }
  | {
    event: "PostToolUse";
    tool: string;
    input: Record<string, unknown>;
    toolUseId: string;
    /** What the tool returned, as Claude Code gives it (`claudeToolResponse`); JSON data. */
    response: unknown;
    /** How long the call took, in milliseconds, as recorded. */
    durationMs?: number;
  }
  | {
    event: "PostToolUseFailure";
    tool: string;
    input: Record<string, unknown>;
    toolUseId: string;
    /** The failure as the model saw it. */
    error: string;
    /** Whether the user interrupted the call. */
    isInterrupt?: boolean;
    /** How long the call took, in milliseconds, as recorded. */
    durationMs?: number;
  }
  | { event: "UserPromptSubmit"; prompt: string }
  | {
    /** `SubagentStop` for a subagent (an agent a `task` call started), `Stop` for the others. */
    event: "Stop" | "SubagentStop";
    /** Whether the agent is already going on because a Stop hook blocked. */
    stopHookActive: boolean;
    lastAssistantMessage?: string;
    /** Background jobs still running (Stop only). */
    backgroundTasks?: readonly unknown[];
    /** Cron jobs that fire in the session (Stop only). */
    sessionCrons?: readonly unknown[];
    /** The subagent's id and type (SubagentStop only). */
    agentId?: string;
    agentType?: string;
    /** The subagent's own transcript, a sidechain (SubagentStop only; `claude_transcript.ts`). */
    agentTranscriptPath?: string;
    /** The teammate's name, for a teammate (SubagentStop only). */
    teammateName?: string;
  }
  /** A teammate is about to go idle (its turn ends): exit 2 keeps it working with stderr. */
  | { event: "TeammateIdle"; teammateName: string; teamName: string }
  | { event: "SessionStart"; source: SessionStartSource; model?: string }
  | { event: "SessionEnd"; reason: SessionEndReason }
  | { event: "PreCompact"; trigger: CompactTrigger; customInstructions: string }
  | { event: "PostCompact"; trigger: CompactTrigger; summary: string }
  | {
    /** A task is being created (create_task) or completed (complete_task): exit 2 refuses it. */
    event: "TaskCreated" | "TaskCompleted";
    /** The task's number, as a string (Claude Code's task ids are strings). */
    taskId: string;
    subject: string;
    description: string;
  }
  /** A worktree is about to be made (create_worktree): exit 2 refuses it. */
  | { event: "WorktreeCreate"; name: string }
  /** A worktree was removed (remove_worktree), its folder absolute. */
  | { event: "WorktreeRemove"; worktreePath: string };

/** What started a compaction, in Claude Code's words. */
export type CompactTrigger = "manual" | "auto";

/** The fields of every hook's stdin, in Claude Code's names. */
export interface HookInputBase {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: PermissionMode;
  prompt_id?: string;
  effort?: string;
}

interface ToolFields {
  tool_name: string;
  tool_input: Record<string, unknown>;
  tool_use_id: string;
}

/** The JSON object a hook reads on stdin, as Claude Code writes it; by `hook_event_name`. */
export type HookInput =
  | HookInputBase & ToolFields & { hook_event_name: "PreToolUse" }
  | HookInputBase & Omit<ToolFields, "tool_use_id"> & {
    hook_event_name: "PermissionRequest";
    permission_suggestions: PermissionSuggestion[];
  }
  | HookInputBase & {
    hook_event_name: "SubagentStart";
    agent_id: string;
    agent_type: string;
    teammate_name?: string;
  }
  | HookInputBase & ToolFields & {
    hook_event_name: "PostToolUse";
    tool_response: unknown;
    duration_ms?: number;
  }
  | HookInputBase & ToolFields & {
    hook_event_name: "PostToolUseFailure";
    error: string;
    is_interrupt?: boolean;
    duration_ms?: number;
  }
  | HookInputBase & { hook_event_name: "UserPromptSubmit"; prompt: string }
  | HookInputBase & {
    hook_event_name: "Stop" | "SubagentStop";
    stop_hook_active: boolean;
    last_assistant_message?: string;
    background_tasks?: readonly unknown[];
    session_crons?: readonly unknown[];
    agent_id?: string;
    agent_type?: string;
    agent_transcript_path?: string;
    teammate_name?: string;
  }
  | HookInputBase & { hook_event_name: "TeammateIdle"; teammate_name: string; team_name: string }
  | HookInputBase & { hook_event_name: "SessionStart"; source: SessionStartSource; model?: string }
  | HookInputBase & { hook_event_name: "SessionEnd"; reason: SessionEndReason }
  | HookInputBase & {
    hook_event_name: "PreCompact";
    trigger: CompactTrigger;
    custom_instructions: string;
  }
  | HookInputBase & {
    hook_event_name: "PostCompact";
    trigger: CompactTrigger;
    compact_summary: string;
  }
  | HookInputBase & {
    hook_event_name: "TaskCreated" | "TaskCompleted";
    task_id: string;
    task_subject: string;
    task_description?: string;
  }
  | HookInputBase & { hook_event_name: "WorktreeCreate"; name: string }
  | HookInputBase & { hook_event_name: "WorktreeRemove"; worktree_path: string };

/** A rule a PermissionRequest hook may answer with, as Claude Code suggests it. */
export interface PermissionSuggestion {
  type: "addRules";
  rules: { toolName: string; ruleContent?: string }[];
  behavior: "allow";
  destination: "localSettings";
}

/**
 * The stdin object for a hook: the session's fields and the event's, in Claude Code's names,
 * with tools named and shaped as Claude Code's (`bash` → `Bash`, `path` → absolute
 * `file_path`). Pure; the result is plain JSON data.
 */
export function buildHookInput(session: HookSession, data: HookEventData): HookInput {
  const base: HookInputBase = {
    session_id: session.sessionId,
    transcript_path: session.transcriptPath,
    cwd: session.cwd,
    permission_mode: session.permissionMode,
    ...(session.promptId === undefined ? {} : { prompt_id: session.promptId }),
    ...(session.effort === undefined ? {} : { effort: session.effort }),
  };
  switch (data.event) {
    case "PreToolUse":
      return { ...base, hook_event_name: data.event, ...toolFields(data, session.cwd) };
    case "PermissionRequest": {
      const { tool_name, tool_input } = toolFields(data, session.cwd);
      return {
        ...base,
        hook_event_name: data.event,
        tool_name,
        tool_input,
        permission_suggestions: [suggestionOf(data.suggestion)],
      };
    }
    case "SubagentStart":
      return {
        ...base,
        hook_event_name: data.event,
        agent_id: data.agentId,
        agent_type: data.agentType,
        ...(data.teammateName === undefined ? {} : { teammate_name: data.teammateName }),
      };
    case "PostToolUse":
      return {
        ...base,
        hook_event_name: data.event,
        ...toolFields(data, session.cwd),
        tool_response: data.response,
        ...(data.durationMs === undefined ? {} : { duration_ms: data.durationMs }),
      };
    case "PostToolUseFailure":
      return {
        ...base,
        hook_event_name: data.event,
        ...toolFields(data, session.cwd),
        error: data.error,
        ...(data.isInterrupt === undefined ? {} : { is_interrupt: data.isInterrupt }),
        ...(data.durationMs === undefined ? {} : { duration_ms: data.durationMs }),
      };
    case "UserPromptSubmit":
      return { ...base, hook_event_name: data.event, prompt: data.prompt };
    case "Stop":
    case "SubagentStop":
      return {
        ...base,
        hook_event_name: data.event,
        stop_hook_active: data.stopHookActive,
        ...(data.lastAssistantMessage === undefined
          ? {}
          : { last_assistant_message: data.lastAssistantMessage }),
        ...(data.backgroundTasks === undefined ? {} : { background_tasks: data.backgroundTasks }),
        ...(data.sessionCrons === undefined ? {} : { session_crons: data.sessionCrons }),
        ...(data.agentId === undefined ? {} : { agent_id: data.agentId }),
        ...(data.agentType === undefined ? {} : { agent_type: data.agentType }),
        ...(data.agentTranscriptPath === undefined
          ? {}
          : { agent_transcript_path: data.agentTranscriptPath }),
        ...(data.teammateName === undefined ? {} : { teammate_name: data.teammateName }),
      };
    case "TeammateIdle":
      return {
        ...base,
        hook_event_name: data.event,
        teammate_name: data.teammateName,
        team_name: data.teamName,
      };
    case "SessionStart":
      return {
        ...base,
        hook_event_name: data.event,
        source: data.source,
        ...(data.model === undefined ? {} : { model: data.model }),
      };
    case "SessionEnd":
      return { ...base, hook_event_name: data.event, reason: data.reason };
    case "PreCompact":
      return {
        ...base,
        hook_event_name: data.event,
        trigger: data.trigger,
        custom_instructions: data.customInstructions,
      };
    case "PostCompact":
      return {
        ...base,
        hook_event_name: data.event,
        trigger: data.trigger,
        compact_summary: data.summary,
      };
    case "TaskCreated":
    case "TaskCompleted":
      return {
        ...base,
        hook_event_name: data.event,
        task_id: data.taskId,
        task_subject: data.subject,
        ...(data.description === "" ? {} : { task_description: data.description }),
      };
    case "WorktreeCreate":
      return { ...base, hook_event_name: data.event, name: data.name };
    case "WorktreeRemove":
      return { ...base, hook_event_name: data.event, worktree_path: data.worktreePath };
  }
}

function toolFields(
  data: { tool: string; input: Record<string, unknown>; toolUseId: string },
  cwd: string,
): ToolFields {
  const { tool_name, tool_input } = toClaudeCall(data.tool, data.input, cwd);
  return { tool_name, tool_input, tool_use_id: data.toolUseId };
}

/** A rule as written (`Bash(npm test *)`, `Read`) as Claude Code's permission suggestion. Pure. */
function suggestionOf(rule: string): PermissionSuggestion {
  const match = /^([^(]+)\((.*)\)$/s.exec(rule);
  const rules = match
    ? [{ toolName: match[1] ?? rule, ruleContent: match[2] ?? "" }]
    : [{ toolName: rule }];
  return { type: "addRules", rules, behavior: "allow", destination: "localSettings" };
}
