import type { BashSandbox } from "../tools/bash_sandbox.ts";
import { bwrapArgs, type SandboxConfig } from "./bwrap_args.ts";
import { isInside } from "../files/is_inside.ts";
import { otherCheckouts, otherWorktrees } from "./worktree_masks.ts";
import { worktreeGitFacts, worktreeGitMounts } from "./worktree_git_mounts.ts";

/**
 * The bash tool's sandbox on bwrap: `config.bwrap`, its options, `--`, then bash; described for
 * the model so a "Read-only file system" error explains itself. After each call it removes what
 * is at `config.tripwires` (the one effect; building it is pure).
 */
export function bwrapSandbox(config: SandboxConfig): BashSandbox {
  const others = config.writable.slice(1);
  const writable = others.length === 0
    ? "the workspace"
    : `the workspace and ${others.map((dir) => `\`${dir}\``).join(", ")}`;
  return {
    description: `Commands run in a sandbox: they can change files only in ${writable} ` +
      "(except rein's log directory and git's configuration and hooks) and in /tmp, which is private to each call and empty at its start, so keep " +
      "files later calls need in the workspace; the rest of the machine is read-only, " +
      "credentials such as ~/.ssh are hidden, secret environment variables are unset" +
      (config.network ? "." : ", and there is no network."),
    argv: (bashArgs, readable) => [
      config.bwrap,
      ...bwrapArgs(config, readable),
      "--",
      "bash",
      ...bashArgs,
    ],
    afterCall: async () => {
      for (const path of config.tripwires) {
        await Deno.remove(path, { recursive: true }).catch(() => {});
      }
    },
    placed: (cwd) => placedSandbox(config, cwd),
  };
}

/**
 * `config`'s sandbox for commands that work in `cwd`, a folder inside its workspace. The folder is
 * bound by its real path, read when a call's command line is built, so a symbolic link put in
 * its place cannot make the workspace's parent, or any other place, writable: a folder that leads
 * out of the workspace fails the call.
 */
function placedSandbox(config: SandboxConfig, cwd: string): BashSandbox {
  const placed = (): BashSandbox => {
    const root = Deno.realPathSync(config.workspace);
    const real = Deno.realPathSync(cwd);
    if (!isInside(root, real)) {
      throw new Error(`The agent's folder "${cwd}" leads out of the workspace (to "${real}")`);
    }
    // In a linked worktree: its own git dir writable (so git commits there), its pointers not.
    const facts = worktreeGitFacts(root, real, homeDir());
    const worktree = facts ? worktreeGitMounts(facts) : { create: [], mounts: [], tripwires: [] };
    for (const { path, kind } of worktree.create) createPlaceholder(path, kind);
    return bwrapSandbox({
      ...config,
      workspace: real,
      writable: [real, ...config.writable.slice(1)],
      gitMounts: [...config.gitMounts, ...worktree.mounts],
      tripwires: [...config.tripwires, ...worktree.tripwires],
      // A read-only folder the agent's folder is in (`.claude/`, around its worktree) would
      // cover it: the workspace is not bound writable here, so it is read-only as it is.
      // In a worktree, the other checkouts' branches, HEAD and index are not its to change.
      readOnly: [
        ...config.readOnly.filter((path) => !isInside(path, real)),
        ...otherCheckouts(root, real),
      ],
      // In a worktree, the other worktrees are not there (another agent's work).
      hidden: [...config.hidden, ...otherWorktrees(root, real)],
    });
  };
  const sandbox = bwrapSandbox({
    ...config,
    workspace: cwd,
    writable: [cwd, ...config.writable.slice(1)],
  });
  // The sandbox the last command line was built for: its tripwires are the ones to clear.
  let last = sandbox;
  return {
    ...sandbox,
    argv: (bashArgs, readable) => (last = placed()).argv(bashArgs, readable),
    afterCall: () => last.afterCall?.() ?? Promise.resolve(),
    placed: (inner) => placedSandbox(config, inner),
  };
}

/** An empty directory or file where nothing is, to mount read-only; never throws. */
function createPlaceholder(path: string, kind: "directory" | "file"): void {
  try {
    if (kind === "directory") Deno.mkdirSync(path, { recursive: true });
    else Deno.writeTextFileSync(path, "", { createNew: true });
  } catch {
    // Already there (a file is never replaced), or not makeable: mounting it fails the call.
  }
}

/** The home directory, for `~/` in a configured hooks path, when rein may read it. */
function homeDir(): string | undefined {
  try {
    return Deno.env.get("HOME");
  } catch {
    return undefined;
  }
}
