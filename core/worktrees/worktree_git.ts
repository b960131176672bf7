import { dirname, join, relative } from "../../events/posix_path.ts";
import { isInside } from "../files/is_inside.ts";
import { type Git, gitProblem, runGit } from "./_git.ts";

/** What a worktree holds that is not in its base: the refusal of a removal lists these. */
export interface WorktreeChanges {
  /** Files with uncommitted changes (untracked ones included), as `git status` names them. */
  files: string[];
  /** Commits on its branch not merged into its base, newest first, `<short sha> <subject>`. */
  commits: string[];
}

/** A git operation's outcome: its value, or why it failed, in words for the model. */
export type GitResult<T> = { ok: true; value: T } | { ok: false; why: string };

/**
 * The git operations of the worktrees mechanism over one repository (the workspace's), each
 * run through `git` (safe configuration, `--` before names and revisions: see `runGit`). Never
 * throw.
 */
export class WorktreeGit {
  constructor(readonly workspace: string, readonly git: Git = runGit) {}

  /** The commit `base` names in the workspace's repository. */
  async resolve(base: string, cwd = this.workspace): Promise<GitResult<string>> {
    const out = await this.git(
      ["rev-parse", "--verify", "--quiet", "--end-of-options", `${base}^{commit}`],
      cwd,
    );
    if (out.code === 0) return { ok: true, value: out.stdout.trim() };
    if (out.code === 1 && out.stderr.trim() === "") {
      return { ok: false, why: `No commit "${base}" in the repository` };
    }
    return { ok: false, why: gitProblem(out) };
  }

  /**
   * `git worktree add -b <branch> -- <path> <commit>` in the workspace. Filter drivers the
   * repository configures (`filter.<driver>.smudge`, `.process`: commands git runs on checkout)
   * are turned off for the checkout, so files come out as stored.
   */
  async add(path: string, branch: string, commit: string): Promise<GitResult<void>> {
    const place = await placeProblem(this.workspace, path);
    if (place !== undefined) return { ok: false, why: place };
    const off = await this.#filtersOff(this.workspace);
    if (!off.ok) return off;
    const out = await this.git(
      [...off.value, "worktree", "add", "--quiet", "-b", branch, "--", path, commit],
      this.workspace,
    );
    return out.code === 0 ? { ok: true, value: undefined } : { ok: false, why: gitProblem(out) };
  }

  /**
   * What the worktree at `path` (relative to the workspace) holds that its base does not:
   * uncommitted files, and commits of `branch` not reachable from `base` (resolved now, in the
   * workspace's checkout; `baseCommit` when it no longer resolves).
   */
  async changes(
    path: string,
    branch: string,
    base: string,
    baseCommit: string,
  ): Promise<GitResult<WorktreeChanges>> {
    const folder = join(this.workspace, path);
    const status = await this.dirtyFiles(folder);
    if (!status.ok) return status;
    const files = status.value;
    const tip = await this.resolve(`refs/heads/${branch}`);
    if (!tip.ok) return { ok: true, value: { files, commits: [] } };
    const now = await this.resolve(base);
    const against = now.ok ? now.value : baseCommit;
    const log = await this.git(
      ["log", "--format=%h %s", "--end-of-options", tip.value, `^${against}`],
      this.workspace,
    );
    if (log.code !== 0) return { ok: false, why: gitProblem(log) };
    const commits = log.stdout.split("\n").filter((line) => line !== "");
    return { ok: true, value: { files, commits } };
  }

  /**
   * The files with uncommitted changes (untracked ones included) in the checkout at `folder`
   * (absolute), as `git status` names them, with every filter driver its configuration names
   * turned off (status may run clean filters when it refreshes the index).
   */
  async dirtyFiles(folder: string): Promise<GitResult<string[]>> {
    const off = await this.#filtersOff(folder);
    if (!off.ok) return off;
    const status = await this.git(
      [
        ...off.value,
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
        "--ignore-submodules=all",
      ],
      folder,
    );
    if (status.code !== 0) return { ok: false, why: gitProblem(status) };
    return { ok: true, value: porcelainFiles(status.stdout) };
  }

  /** `git worktree remove --force -- <path>`, then `git branch -D -- <branch>`. */
  async remove(path: string, branch: string): Promise<GitResult<void>> {
    const out = await this.git(
      ["worktree", "remove", "--force", "--force", "--", path],
      this.workspace,
    );
    if (out.code !== 0) {
      // A folder removed by hand: git forgets it when pruned.
      const gone = await Deno.stat(join(this.workspace, path)).then(() => false, () => true);
      if (!gone) return { ok: false, why: gitProblem(out) };
      await this.git(["worktree", "prune"], this.workspace);
    }
    const branchOut = await this.git(["branch", "-D", "--quiet", "--", branch], this.workspace);
    if (branchOut.code !== 0 && !/not found/.test(branchOut.stderr)) {
      return { ok: false, why: gitProblem(branchOut) };
    }
    return { ok: true, value: undefined };
  }

  /** The worktrees `git worktree list` knows: each folder (absolute) and its branch, if any. */
  async list(): Promise<GitResult<{ path: string; branch: string | null }[]>> {
    const out = await this.git(["worktree", "list", "--porcelain", "-z"], this.workspace);
    if (out.code !== 0) return { ok: false, why: gitProblem(out) };
    const found: { path: string; branch: string | null }[] = [];
    for (const line of out.stdout.split("\0")) {
      if (line.startsWith("worktree ")) {
        found.push({ path: line.slice("worktree ".length), branch: null });
      }
      const last = found.at(-1);
      if (line.startsWith("branch refs/heads/") && last !== undefined) {
        last.branch = line.slice("branch refs/heads/".length);
      }
    }
    return { ok: true, value: found };
  }

  /**
   * `git sparse-checkout set --cone -- <paths>` in the worktree at `path` (relative to the
   * workspace): only those folders (and the files at its root) stay checked out (Claude Code's
   * `worktree.sparsePaths`). Filter drivers off, as for `add`.
   */
  async sparse(path: string, paths: readonly string[]): Promise<GitResult<void>> {
    const folder = join(this.workspace, path);
    const off = await this.#filtersOff(folder);
    if (!off.ok) return off;
    const out = await this.git(
      [...off.value, "sparse-checkout", "set", "--cone", "--", ...paths],
      folder,
    );
    return out.code === 0 ? { ok: true, value: undefined } : { ok: false, why: gitProblem(out) };
  }

  /**
   * The workspace's untracked files (ignored ones included) that the patterns of its
   * `.worktreeinclude` (gitignore syntax) match, relative to it: what Claude Code copies into a
   * new worktree (`.env`). None without the file.
   */
  async included(): Promise<GitResult<string[]>> {
    const patterns = join(this.workspace, ".worktreeinclude");
    if (!(await Deno.stat(patterns).then((info) => info.isFile, () => false))) {
      return { ok: true, value: [] };
    }
    const out = await this.git(
      ["ls-files", "-z", "--others", "--ignored", `--exclude-from=${patterns}`],
      this.workspace,
    );
    if (out.code !== 0) return { ok: false, why: gitProblem(out) };
    return { ok: true, value: out.stdout.split("\0").filter((file) => file !== "") };
  }

  /**
   * `-c` options turning off every filter driver git's configuration in `cwd` names (their
   * `smudge`, `clean` and `process` commands, which git runs on checkout and status), or why
   * one cannot be.
   */
  async #filtersOff(cwd: string): Promise<GitResult<string[]>> {
    const out = await this.git(
      ["config", "--null", "--name-only", "--get-regexp", "^filter\\."],
      cwd,
    );
    if (out.code !== 0) return { ok: true, value: [] };
    const drivers = new Set(
      out.stdout.split("\0").flatMap((key) => {
        const match = /^filter\.(.+)\.[^.]+$/s.exec(key);
        return match?.[1] === undefined ? [] : [match[1]];
      }),
    );
    const odd = [...drivers].find((driver) => driver.includes("="));
    if (odd !== undefined) {
      return {
        ok: false,
        why: `The repository configures a filter driver "${odd}" git cannot be told to skip`,
      };
    }
    return {
      ok: true,
      value: [...drivers].flatMap((driver) => [
        "-c",
        `filter.${driver}.smudge=cat`,
        "-c",
        `filter.${driver}.clean=cat`,
        "-c",
        `filter.${driver}.process=`,
        "-c",
        `filter.${driver}.required=false`,
      ]),
    };
  }
}

/**
 * Why a worktree cannot be made at `path` (relative to `workspace`): something is there already,
 * or the folders on the way lead out of the workspace (a repository may hold `.claude/worktrees`
 * as a symbolic link to elsewhere, where git would then write).
 */
async function placeProblem(workspace: string, path: string): Promise<string | undefined> {
  const target = join(workspace, path);
  if (await Deno.lstat(target).then(() => true, () => false)) {
    return `Something is at ${path} already`;
  }
  let real: string;
  try {
    real = await Deno.realPath(workspace);
  } catch (error) {
    return `Cannot read the workspace: ${error instanceof Error ? error.message : error}`;
  }
  for (let at = dirname(target); isInside(workspace, at); at = dirname(at)) {
    const found = await Deno.realPath(at).catch(() => undefined);
    if (found === undefined) continue;
    return isInside(real, found)
      ? undefined
      : `${relative(workspace, at)} leads out of the workspace`;
  }
  return undefined;
}

/** The files of `git status --porcelain=v1 -z` output (a rename's new name). Pure. */
export function porcelainFiles(output: string): string[] {
  const fields = output.split("\0");
  const files: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const field = fields[i] as string;
    if (field.length < 4) continue;
    files.push(field.slice(3));
    // A rename or copy is followed by the name it came from.
    if (field[0] === "R" || field[0] === "C") i += 1;
  }
  return files;
}
