import type { Tool } from "../tools/tool.ts";
import { lazySchema } from "../tools/schema.ts";

/** The name of the tool the model calls to compact its conversation. */
export const COMPACT_TOOL = "compact";

/** Input of the compact tool. */
export interface CompactInput {
  focus?: string | undefined;
}

const INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    focus: {
      type: "string",
      description: "What the summary must keep in detail (the task at hand, a file, an error)",
    },
  },
  additionalProperties: false,
};

/**
 * The `compact` tool (s08's manual layer): the model asks for its conversation to be summarised.
 * The call itself only answers; the compaction runs before the next request (see the compaction
 * mechanism), and the other calls of the same answer are not run. A decider: replay runs it.
 */
export const compactTool: Tool<CompactInput> = {
  name: COMPACT_TOOL,
  description:
    "Compacts your conversation: everything so far is replaced by a structured summary (goal, " +
    "decisions, files, errors and fixes, pending work, current step), freeing the context " +
    "window. Use it when the context is filling up with output you no longer need, or before " +
    "starting a different part of the work. Call it alone: other calls in the same answer are " +
    "not run.",
  schema: lazySchema((z) =>
    z.strictObject({
      focus: z.string().describe(
        "What the summary must keep in detail (the task at hand, a file, an error)",
      ).optional(),
    })
  ),
  inputSchema: INPUT_SCHEMA,
  kind: "decider",
  readOnly: true,
  // It only summarises the conversation.
  permission: "read-only",
  summarize: (input) => input.focus ?? "",
  run: () =>
    Promise.resolve({ content: "The conversation will be compacted before your next step." }),
};
