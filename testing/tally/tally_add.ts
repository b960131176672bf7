import type { z } from "zod";
import { lazySchema } from "../../core/tools/schema.ts";
import type { Tool } from "../../core/tools/tool.ts";
import { tallyOf } from "./tally_projection.ts";

/** The input's zod schema, built on the tool's first call: zod is not loaded at start-up. */
const schema = lazySchema((z) =>
  z.strictObject({ by: z.number().int().positive().describe("How much to add") })
);

/** Input of the tally_add tool. */
export type TallyAddInput = z.infer<Awaited<ReturnType<typeof schema>>>;

/** The JSON Schema the model sees: what {@link schema} gives (a test holds them together). */
export const TALLY_ADD_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    by: { type: "integer", exclusiveMinimum: 0, description: "How much to add" },
  },
  required: ["by"],
  additionalProperties: false,
};

/**
 * `tally_add` (Claude Code name `TallyAdd`), a decider described by zod: adds to the session's
 * tally and says the new total; its result and its `tally.added` are a pure function of its
 * input and the state, so replay runs it again and `--verify` checks it.
 */
export const tallyAddTool: Tool<TallyAddInput> = {
  name: "tally_add",
  claudeNames: ["TallyAdd"],
  description: "Adds to the session's tally and says the new total.",
  schema,
  inputSchema: TALLY_ADD_INPUT_SCHEMA,
  kind: "decider",
  readOnly: false,
  // It changes nothing outside rein's log: it never asks (as todo_write).
  permission: "read-only",
  guidance: "Use tally_add to count things the user asks you to count.",
  summarize: (input) => `+${input.by}`,
  run(input, context) {
    const total = tallyOf(context.view(), context.session) + input.by;
    return Promise.resolve({
      content: `Tally is now ${total}`,
      events: [{ type: "tally.added", data: { by: input.by, total } }],
    });
  },
};
