import type { Tool } from "../../core/tools/tool.ts";
import { tallyOf } from "./tally_projection.ts";
import { workspaceTallyOf } from "./workspace_tally.ts";

/** Input of the tally_peek tool. */
export interface TallyPeekInput {
  /** The session's tally, or the whole workspace's. */
  scope: "session" | "workspace";
}

/** The only description of tally_peek's input: no zod (as an MCP server's tools come). */
export const TALLY_PEEK_INPUT_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    scope: {
      type: "string",
      enum: ["session", "workspace"],
      description: "The session's tally, or every session's together",
    },
  },
  required: ["scope"],
  additionalProperties: false,
};

/**
 * `tally_peek`, a decider described by a JSON Schema alone: says the session's tally or the
 * workspace's. Its Claude Code name `TallyPeek` is what permission rules and hook matchers may
 * call it (`TallyPeek(workspace)`: the rule's specifier matches its `scope`). Its permission
 * class is `other`, so it asks (and a headless run denies it) unless a rule allows it.
 */
export const tallyPeekTool: Tool<TallyPeekInput> = {
  name: "tally_peek",
  claudeNames: ["TallyPeek"],
  specifierFields: ["scope"],
  description: "Says the tally of this session, or of every session of the workspace together.",
  inputSchema: TALLY_PEEK_INPUT_SCHEMA,
  kind: "decider",
  readOnly: true,
  summarize: (input) => input.scope,
  run(input, context) {
    const state = context.view();
    const content = input.scope === "session"
      ? `The session's tally is ${tallyOf(state, context.session)}`
      : `The workspace's tally is ${workspaceTallyOf(state).total}`;
    return Promise.resolve({ content });
  },
};
