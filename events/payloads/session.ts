import type { EventTable } from "./_payload.ts";
import type { AgentMoved } from "./agent.ts";
import type { ConversationMessage } from "./model.ts";
import type { SettingsSnapshot } from "./settings.ts";

/** Why a turn ended. */
export type TurnEndReason =
  | "completed"
  | "max_turns"
  | "max_budget"
  | "cancelled"
  | "failed"
  | "interrupted";

export interface SessionStarted {
  /** Model id used for requests. */
  model: string;
  /** Absolute workspace directory. */
  workspace: string;
  /** Clock reading taken at start; the system prompt's date comes from it. */
  startedAt: string;
  /** Output token limit per request. */
  maxTokens: number;
  /** Operating system the session ran on (part of the system prompt). */
  platform: string;
  /** The model to fall back to when the model keeps being overloaded (`--fallback-model`). */
  fallbackModel?: string;
  /** Extended thinking's token budget per request (`--effort`), when thinking is on. */
  thinkingBudget?: number;
  /** Replaces rein's own instructions in the system prompt (`--system-prompt`). */
  systemPrompt?: string;
  /** Added at the end of the system prompt (`--append-system-prompt`). */
  appendSystemPrompt?: string;
  /** Present when this session was forked from another one. */
  forkedFrom?: { session: string; seq: number };
  /** For a fork: the conversation of the source session as it was at `forkedFrom.seq`. */
  history?: ConversationMessage[];
  /**
   * The settings files and permission flags read at start, and the session's features (the
   * mechanisms active for it, `settings.features`). Absent in sessions recorded before rein had
   * permissions: those ran every call, and replay lets them.
   */
  settings?: SettingsSnapshot;
  /**
   * Files the mechanisms read at start (CLAUDE.md and its imports, skill catalogs, agent
   * definitions, the memory index), with their text: replay reads these, never the disk.
   */
  files?: RecordedFile[];
  /**
   * Where the main agent works when not the workspace itself: the worktree `rein -w` started
   * the session in (its folder relative to the workspace, and its name).
   */
  place?: AgentMoved;
}

/** A file a mechanism read from disk, as it was read. */
export interface RecordedFile {
  /** The mechanism that read it (`memory`, `skills`, `agents`). */
  source: string;
  /** Absolute path. */
  path: string;
  text: string;
  /**
   * The plugin whose file it is (`--plugin-dir`, an enabled plugin): its parts are named
   * `<plugin>:<name>`. Absent for the project's and the person's files, and in older logs.
   */
  plugin?: string;
}

export interface SessionResumed {
  /** How the session was reopened. */
  how: "resume" | "continue";
  /** True when the resume came with a new prompt: unfinished work is closed, not continued. */
  withPrompt: boolean;
  /** The bound on model rounds for the continued turn, null when unbounded. */
  maxTurns: number | null;
  /** The bound on the continued turn's dollars (`--max-budget-usd`), when one was given. */
  maxBudgetUsd?: number;
  /**
   * The settings as read again at the resume (they may have changed since the start), with the
   * features of the rein that resumed it, which hold from here on.
   */
  settings?: SettingsSnapshot;
  /** The mechanisms' files as read again at the resume. */
  files?: RecordedFile[];
}

/** Why a session ended, in Claude Code's SessionEnd terms. */
export interface SessionEnded {
  reason: "clear" | "logout" | "prompt_input_exit" | "other";
}

/**
 * Something for the model to note with the next user message, as a `<system-reminder>` (a todo
 * list left alone, a memory saved): never in the system prompt, so its cached prefix stays put.
 */
export interface ReminderAdded {
  /** The mechanism that added it. */
  source: string;
  text: string;
}

export interface UserPrompted {
  text: string;
  /** Why the prompt was refused before its turn (a UserPromptSubmit hook blocked it). */
  refused?: string;
}

/** A turn: from a prompt to the answer, made of one or more model rounds. */
export interface TurnStarted {
  /** Model rounds this agent did in the session before this turn began. */
  roundsBefore: number;
  /** The bound on model rounds for this turn (`--max-turns`), null when unbounded. */
  maxTurns: number | null;
  /** The bound on this turn's dollars (`--max-budget-usd`), when one was given. */
  maxBudgetUsd?: number;
}

export interface TurnEnded {
  reason: TurnEndReason;
  /** Model rounds this agent did in the session so far. */
  rounds: number;
  /** Human-readable detail for failed/cancelled turns. */
  message?: string;
}

/** Sessions and turns: what the user started and how each turn ended. */
export interface SessionEvents {
  "session.started": SessionStarted;
  "session.resumed": SessionResumed;
  "session.ended": SessionEnded;
  "reminder.added": ReminderAdded;
  "user.prompted": UserPrompted;
  "turn.started": TurnStarted;
  "turn.ended": TurnEnded;
}

/** The event types of SessionEvents, for validation on read. */
export const SESSION_EVENTS: EventTable<SessionEvents> = {
  "session.started": true,
  "session.resumed": true,
  "session.ended": true,
  "reminder.added": true,
  "user.prompted": true,
  "turn.started": true,
  "turn.ended": true,
};
