import type { z } from "zod";

/** What a tool hands back to the loop. A tool never throws into the loop. */
export interface ToolResult {
  /** Text the model sees as the tool_result content. */
  content: string;
  /** True when the call failed; worded for the model ("File not found: src/x.ts"). */
  isError?: boolean;
}

/** Per-call context the loop gives a tool. */
export interface ToolCallContext {
  /** Aborted when the user cancels the turn; a tool stops its work and returns promptly. */
  signal: AbortSignal;
}

/**
 * A tool the model can call: a zod schema (its JSON Schema is what the model sees and what the
 * model's input is validated against) and a `run` that never throws.
 */
export interface Tool<Input = unknown> {
  name: string;
  description: string;
  schema: z.ZodType<Input>;
  /** True for tools with no side effects (safe to re-run after a crash). */
  readOnly: boolean;
  /** The key argument shown on the one-line call summary (a command, a path, a pattern). */
  summarize(input: Input): string;
  run(input: Input, context: ToolCallContext): Promise<ToolResult>;
}

/** A tool whose input type has been erased, as kept in a tool set. */
// deno-lint-ignore no-explicit-any
export type AnyTool = Tool<any>;
