/** What the system prompt is assembled from; every field comes from the log, never the clock. */
export interface SystemPromptInput {
  workspace: string;
  /** ISO time recorded at session start; only its date is shown, so the prompt stays cacheable. */
  clockAtStart: string;
  platform: string;
  model: string;
  toolNames: readonly string[];
}

/** A text block of the `system` parameter. */
export interface SystemBlock {
  type: "text";
  text: string;
  cache_control?: { type: "ephemeral" };
}

/**
 * Assemble the system prompt: who the agent is, how it works, the workspace, the date and the
 * tools. Pure: the same input gives byte-identical output from turn to turn, and the last block
 * carries a `cache_control` breakpoint so the provider's prompt cache can serve it.
 */
export function buildSystemPrompt(input: SystemPromptInput): SystemBlock[] {
  const identity = [
    "You are rein, a coding agent working in the user's terminal. You help with software",
    "engineering: reading and changing code, running commands, debugging, explaining.",
    "",
    "How you work:",
    "- Act, don't narrate: use the tools to inspect the workspace before you answer questions",
    "  about it, and make changes with the tools rather than printing code for the user to paste.",
    "- Read a file before you edit it. Prefer edit_file for changes to existing files and",
    "  write_file for new files. Keep changes focused on what was asked.",
    "- Use glob and grep to find things, read_file to read them; use bash for builds, tests, git",
    "  and anything else a shell does. Don't use bash to read or search files when a dedicated",
    "  tool fits.",
    "- When a command fails, read the error and fix the cause instead of retrying blindly.",
    "- Never invent file contents, command output or test results. If you are unsure, check.",
    "- Be concise. When the task is done, say briefly what you did and what is left, if anything.",
  ].join("\n");
  const environment = [
    "Environment:",
    `- Workspace: ${input.workspace} (all file paths are relative to it; tools cannot reach`,
    "  outside it)",
    `- Platform: ${input.platform}`,
    `- Date: ${input.clockAtStart.slice(0, 10)}`,
    `- Model: ${input.model}`,
    `- Tools: ${input.toolNames.join(", ")}`,
  ].join("\n");
  return [
    { type: "text", text: identity },
    { type: "text", text: environment, cache_control: { type: "ephemeral" } },
  ];
}
