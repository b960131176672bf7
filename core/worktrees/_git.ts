import { killGroup } from "../tools/kill_group.ts";
import { spawnInOwnSession } from "../tools/own_session_command.ts";

/** What one git command gave. */
export interface GitOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs git with `args` in `cwd` (see {@link runGit}). */
export type Git = (args: readonly string[], cwd: string) => Promise<GitOutput>;

/** How long one git command may take before it is stopped. */
export const GIT_TIMEOUT_MS = 30_000;

/**
 * Configuration given to every git command before the repository's own, so that a hostile
 * repository's `.git/config` cannot make git run code: no hooks (`post-checkout` runs on
 * `worktree add`), no file-system monitor (run by `status`), no transport at all (so no
 * `core.sshCommand`, `core.gitProxy` or remote helper), no pager or editor.
 */
export const SAFE_GIT_CONFIG: readonly string[] = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "protocol.allow=never",
  "-c",
  "core.pager=cat",
  "-c",
  "core.editor=false",
  "-c",
  "submodule.recurse=false",
];

/**
 * Runs the `git` on the PATH with {@link SAFE_GIT_CONFIG} before `args`, in `cwd`, in a session
 * of its own (no terminal: it never asks), with an environment of PATH and HOME alone (no
 * `GIT_DIR`, `GIT_SSH_COMMAND` or `GIT_CONFIG_*` from rein's), stopped after
 * {@link GIT_TIMEOUT_MS}. Callers put `--` (or `--end-of-options`) before names and revisions.
 * Never throws.
 */
export async function runGit(args: readonly string[], cwd: string): Promise<GitOutput> {
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" };
  for (const name of ["PATH", "HOME"]) {
    const value = readEnv(name);
    if (value !== undefined) env[name] = value;
  }
  let child: Deno.ChildProcess;
  try {
    child = spawnInOwnSession("git", {
      args: [...SAFE_GIT_CONFIG, ...args],
      cwd,
      clearEnv: true,
      env,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { code: 127, stdout: "", stderr: `cannot run git: ${why}` };
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid).catch(() => {});
  }, GIT_TIMEOUT_MS);
  try {
    const output = await child.output();
    const decoder = new TextDecoder();
    if (timedOut) {
      return { code: 124, stdout: "", stderr: `git was stopped after ${GIT_TIMEOUT_MS / 1000} s` };
    }
    return {
      code: output.code,
      stdout: decoder.decode(output.stdout),
      stderr: decoder.decode(output.stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}

/** The first line git wrote to stderr, without `fatal: `, or its exit code. Pure. */
export function gitProblem(output: GitOutput): string {
  const line = output.stderr.split("\n").map((text) => text.replace(/^(fatal|error): /, "").trim())
    .find((text) => text !== "");
  return line ?? `git exited with ${output.code}`;
}

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}
