import type { EventTable } from "./_payload.ts";

export interface ToolRequested {
  /** The model's tool_use id. */
  callId: string;
  name: string;
  input: unknown;
}

/**
 * Why a call was closed without its tool producing the result (absent when the tool ran):
 * - `cancelled`: the user cancelled the turn before or while it ran (the tool stopped);
 * - `interrupted`: the process died while it ran, so its effect is unknown;
 * - `not_run`: it never started (its input was cut off, or a new prompt superseded it);
 * - `denied`: a permission rule, mode or person refused it;
 * - `blocked`: a hook refused it.
 */
export type CallOutcome = "cancelled" | "interrupted" | "not_run" | "denied" | "blocked";

export interface ToolCompleted {
  callId: string;
  name: string;
  /**
   * What the model sees as the tool_result content; with `blocks`, their text as people and hooks
   * of text read it (an image as `[image image/png 12 KB]`).
   */
  content: string;
  /**
   * The tool_result's content blocks, in the tool's order, when the result is more than text (an
   * MCP tool's image or embedded resource): what the model sees instead of `content`. Images are
   * inline (base64, at most 5 MB each and 10 MB for one result), so the log alone rebuilds the
   * request. Absent for a text result, which the model gets as the string `content`.
   */
  blocks?: ToolResultBlock[];
  isError: boolean;
  durationMs: number;
  /** Set when the result was not produced by running the tool to its end. */
  outcome?: CallOutcome;
  /**
   * The file the call read or wrote, as it was on disk when the call ended (read_file, edit_file
   * and write_file in a session with read before edit): what a later edit by the same agent
   * compares with the file then.
   */
  file?: FileSeen;
}

/** A content block of a tool result, in the Messages API's shape (keys in sorted order). */
export type ToolResultBlock =
  | { text: string; type: "text" }
  | { source: ImageSource; type: "image" };

/** An image's bytes, base64, with one of the media types the Messages API accepts. */
export interface ImageSource {
  data: string;
  media_type: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
  type: "base64";
}

/** A file as a tool saw it on disk: its absolute path, modification time and size. */
export interface FileSeen {
  path: string;
  /** Modification time, in milliseconds since the epoch. */
  mtimeMs: number;
  size: number;
  /** A hash of the whole content, when the call saw all of it (a read without offset or limit). */
  hash?: string;
}

/** Tool calls: the intent (flushed before the tool runs) and the result. */
export interface ToolEvents {
  "tool.requested": ToolRequested;
  "tool.completed": ToolCompleted;
}

/** The event types of ToolEvents, for validation on read. */
export const TOOL_EVENTS: EventTable<ToolEvents> = {
  "tool.requested": true,
  "tool.completed": true,
};
