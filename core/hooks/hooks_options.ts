import type { BashSandbox } from "../tools/bash_sandbox.ts";

/** What the hooks mechanism is wired with. */
export interface HooksOptions {
  workspace: string;
  /** The event log: hooks get it as `transcript_path`. */
  transcriptPath: string;
  /** The environment hook commands run with (secrets removed by the caller). */
  env: Record<string, string>;
  /**
   * The sandbox bash runs in: hooks from the project's files (`.claude/settings*.json`, which a
   * cloned repository brings) run in it too; the person's own (`~/.claude`, `--settings`) do not.
   */
  sandbox?: BashSandbox | PromiseLike<BashSandbox | undefined>;
}
