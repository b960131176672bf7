import type { Envelope, HookRan, HooksStarted } from "../../events/event_types.ts";
import type { Projection } from "../state/projection.ts";

/** One session's hook runs about tool calls, and hooks started but not finished. */
export interface SessionHooks {
  /** Runs by call id, in log order (PreToolUse and PostToolUse). */
  byCall: Record<string, HookRan[]>;
  /** Hooks started and not all finished, by `hookEvent:callId`: a crash left them unknown. */
  running: Record<string, HooksStarted & { finished: number }>;
  /** Prompts recorded (`user.prompted`, refused ones too), by agent: hooks' `prompt_id`. */
  prompts: Record<string, number>;
  /**
   * By agent, the `/name args` the person typed whose prompt is about to be recorded: a custom
   * command (with the prompt it became) or a skill invoked by name. UserPromptSubmit hooks get it
   * as `prompt`, as Claude Code gives them the text typed, not its expansion.
   */
  typed?: Record<string, TypedCommand>;
}

/** A slash command the person typed, recorded before the prompt it becomes. */
export interface TypedCommand {
  /** `/name args`, as typed (rebuilt from the name and arguments recorded). */
  text: string;
  /** The prompt a custom command became; absent for a skill. */
  expansion?: string;
}

/** By session id. */
export type HooksSlice = Record<string, SessionHooks>;

/** The key of a batch of hooks run at an event for a call. */
export function runKey(hookEvent: string, callId: string | undefined): string {
  return `${hookEvent}:${callId ?? ""}`;
}

/** Folds hook runs by session and call. Pure. */
export const hooksProjection: Projection<HooksSlice> = {
  key: "hooks",
  canHandle: [
    "hook.started",
    "hook.ran",
    "user.prompted",
    "command.invoked",
    "skill.invoked",
    "session.resumed",
  ],
  initial: () => ({}),
  evolve(slice, event: Envelope) {
    if (event.type === "user.prompted") {
      const session = slice[event.session] ??= { byCall: {}, running: {}, prompts: {} };
      session.prompts[event.agent] = (session.prompts[event.agent] ?? 0) + 1;
      if (session.typed !== undefined) delete session.typed[event.agent];
      return slice;
    }
    if (event.type === "command.invoked" || event.type === "skill.invoked") {
      if (event.type === "command.invoked" && event.data.refused !== undefined) return slice;
      const session = slice[event.session] ??= { byCall: {}, running: {}, prompts: {} };
      const { name, arguments: args } = event.data;
      (session.typed ??= {})[event.agent] = {
        text: args === "" ? `/${name}` : `/${name} ${args}`,
        ...(event.type === "command.invoked" ? { expansion: event.data.prompt } : {}),
      };
      return slice;
    }
    if (event.type === "session.resumed") {
      // A skill typed before a crash cut its prompt off must not name a later prompt (a
      // command's is checked against the prompt it became).
      const typed = slice[event.session]?.typed;
      for (const [agent, entry] of Object.entries(typed ?? {})) {
        if (entry.expansion === undefined) delete typed![agent];
      }
      return slice;
    }
    if (event.type !== "hook.started" && event.type !== "hook.ran") return slice;
    const session = slice[event.session] ??= { byCall: {}, running: {}, prompts: {} };
    const key = runKey(event.data.hookEvent, event.data.callId);
    if (event.type === "hook.started") {
      session.running[key] = { ...event.data, finished: 0 };
      return slice;
    }
    if (event.data.callId !== undefined) {
      (session.byCall[event.data.callId] ??= []).push(event.data);
    }
    const running = session.running[key];
    if (running !== undefined && ++running.finished >= running.commands.length) {
      delete session.running[key];
    }
    return slice;
  },
};
