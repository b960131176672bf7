import type { EventTable } from "./_payload.ts";

/**
 * Hooks about to run at an event, recorded (and flushed) before they start: if the process dies
 * while they run, their outcome is unknown, and a call they were deciding is not run.
 */
export interface HooksStarted {
  /** The hook event (`PreToolUse`, `Stop`, …). */
  hookEvent: string;
  /** The call the hooks are about, for tool events. */
  callId?: string;
  commands: string[];
}

/** One hook command's run: what it was given to decide and what it said. */
export interface HookRan {
  hookEvent: string;
  callId?: string;
  /** The matcher that selected it, as written ("" when absent). */
  matcher: string;
  command: string;
  /** Null when it did not exit by itself (timed out, cancelled, failed to start). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  ending: "exited" | "timed_out" | "cancelled" | "failed_to_start";
  /** What rein made of it, in words (derived from the fields above). */
  decision: string;
  /**
   * What a SessionStart hook wrote to its `CLAUDE_ENV_FILE`, read and expanded (no secret's name):
   * the variables every later bash command of the session gets, as recorded (replay and a resume
   * take them from here, never from the hook again).
   */
  env?: Record<string, string>;
  /** The lines of that file left out, each as `line N: why` (or why the whole file was). */
  envIgnored?: string[];
}

/**
 * What hooks add for the model to read (UserPromptSubmit's and SessionStart's context, a
 * PostToolUse hook's feedback, a Stop hook's reason to go on), as a user message block.
 */
export interface HookContext {
  hookEvent: string;
  text: string;
}

/** Command hooks (Claude Code's contract). */
export interface HookEvents {
  "hook.started": HooksStarted;
  "hook.ran": HookRan;
  "hook.context": HookContext;
}

/** The event types of HookEvents, for validation on read. */
export const HOOK_EVENTS: EventTable<HookEvents> = {
  "hook.started": true,
  "hook.ran": true,
  "hook.context": true,
};
