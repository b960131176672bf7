import type { BashSandbox } from "../tools/bash_sandbox.ts";

/** What the hooks mechanism is wired with. */
export interface HooksOptions {
  workspace: string;
  /** The event log: hooks get it as `transcript_path`. */
  transcriptPath: string;
  /** The environment hook commands run with (secrets removed by the caller). */
  env: Record<string, string>;
  /**
   * A sandbox to confine the project's hooks (`.claude/settings*.json`) to; the person's own
   * (`~/.claude`, `--settings`) never are. rein sets none: a repository's hooks run only once
   * the person trusted the folder, and then as the person's own do, with their environment and
   * able to keep state in `.claude/`, `~/.claude/`, caches and `/tmp`, as in Claude Code. An
   * embedder may still set one.
   */
  sandbox?: BashSandbox | PromiseLike<BashSandbox | undefined>;
}
