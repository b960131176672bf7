/**
 * Claude Code flags that rein accepts without acting on them, so a program that starts Claude
 * Code (the Claude Agent SDK's `query()` passes its options as flags) starts rein unchanged. Each
 * says why rein does not act on it; given, it is named on stderr with that reason. Zero imports:
 * cli/main.ts reads this table to build its options.
 *
 * @module
 */

/** A flag rein accepts and ignores. */
export interface IgnoredFlag {
  /** The long flag, as Claude Code spells it. */
  flag: string;
  /** Whether it takes a value (`--flag VALUE` or `--flag=VALUE`). */
  value: boolean;
  /** Why rein does not act on it, for the notice; undefined when there is nothing to say. */
  reason: string | undefined;
}

/** The flags the Agent SDK (0.3) may pass that rein has no equivalent of, and why. */
export const IGNORED_CLAUDE_FLAGS: readonly IgnoredFlag[] = [
  {
    flag: "--include-partial-messages",
    value: false,
    reason: "rein prints each message whole, with no stream_event lines",
  },
  {
    flag: "--include-hook-events",
    value: false,
    reason: "rein records hook runs in its log; stream-json carries messages and results only",
  },
  {
    flag: "--thinking",
    value: true,
    reason: "rein thinks only with --effort (or the effortLevel setting)",
  },
  {
    flag: "--max-thinking-tokens",
    value: true,
    reason: "rein thinks only with --effort (or the effortLevel setting)",
  },
  { flag: "--thinking-display", value: true, reason: "rein does not summarize thinking" },
  { flag: "--task-budget", value: true, reason: "rein has no task budget; --max-budget-usd is" },
  { flag: "--agent", value: true, reason: "rein's main agent is always its own" },
  { flag: "--betas", value: true, reason: "rein sends no beta headers of the caller's" },
  { flag: "--json-schema", value: true, reason: "rein has no structured output yet" },
  { flag: "--debug-file", value: true, reason: "rein's log is the record; --debug prints it" },
  {
    flag: "--permission-prompts",
    value: true,
    reason: "rein asks only with --permission-prompt-tool stdio",
  },
  { flag: "--channels", value: true, reason: "rein has no channels" },
  {
    flag: "--tools",
    value: true,
    reason: "rein offers its own tool set; deny tools with --disallowedTools",
  },
  {
    // Only lets the SDK choose bypassPermissions, which rein's --permission-mode always can.
    flag: "--allow-dangerously-skip-permissions",
    value: false,
    reason: undefined,
  },
  { flag: "--session-mirror", value: false, reason: "rein's log is the session's only record" },
  {
    flag: "--project-config-root",
    value: true,
    reason: "rein reads the project's settings from the workspace",
  },
  {
    flag: "--add-dir",
    value: true,
    reason: "rein's file tools work in the workspace; use permissions.additionalDirectories",
  },
  // rein answers the initialize request before it reads any prompt.
  { flag: "--await-initialize", value: false, reason: undefined },
  {
    flag: "--plugin-dir-no-mcp",
    value: true,
    reason: "rein runs no plugin's MCP servers; give the plugin folder with --plugin-dir",
  },
  {
    flag: "--fork-session",
    value: false,
    reason: "the session reopened goes on itself; rein forks with --fork ID@SEQ",
  },
  {
    flag: "--resume-session-at",
    value: true,
    reason: "rein reopens a session at its end; it forks from a seq with --fork ID@SEQ",
  },
  {
    flag: "--resume-drops-turn",
    value: true,
    reason: "rein reopens a session at its end; it forks from a seq with --fork ID@SEQ",
  },
  {
    flag: "--no-session-persistence",
    value: false,
    reason: "rein records every session in its log",
  },
  { flag: "--initialize-fields", value: true, reason: undefined },
  {
    flag: "--managed-settings-in-initialize",
    value: false,
    reason: "rein reads no settings from the initialize request",
  },
  { flag: "--managed-settings", value: true, reason: "rein reads no managed settings" },
];

/** The notice for an ignored flag that was given, or undefined when it needs none. Pure. */
export function ignoredFlagNotice(flag: string): string | undefined {
  const reason = IGNORED_CLAUDE_FLAGS.find((ignored) => ignored.flag === flag)?.reason;
  return reason === undefined ? undefined : `Ignored ${flag}: ${reason}`;
}
