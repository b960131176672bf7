import { join, relative } from "../events/posix_path.ts";
import { reinCatalogProjections } from "../core/harness.ts";
import { foldCatalog } from "../core/snapshots/mod.ts";
import type { Catalog } from "../core/state/catalog.ts";
import {
  COURSE_WORKTREES_DIR,
  type WorktreeCatalog,
  worktreeCatalogProjection,
  type WorktreeEntry,
  WorktreeGit,
  WORKTREES_DIR,
} from "../core/worktrees/mod.ts";
import { catalogSliceOf } from "../core/state/catalog.ts";
import type { CommandIo } from "./io.ts";

/** One worktree as `rein worktrees` lists it: the log's record and git's state now. */
export interface ListedWorktree {
  name: string;
  /** Its folder, absolute. */
  path: string;
  branch: string | null;
  base: string | null;
  task: number | null;
  /**
   * In the log: active, kept or removed; `unrecorded` for a worktree git knows under
   * `.claude/worktrees/` or the course's `.worktrees/` that the log does not (made by hand, by
   * Claude Code or by the course's agent).
   */
  state: WorktreeEntry["state"] | "unrecorded";
  /** Its files now, from git: `clean`, `dirty`, or `missing` (its folder is gone). */
  files: "clean" | "dirty" | "missing" | "unknown";
  /** Files with uncommitted changes. */
  dirty: string[];
  /** Commits on its branch not merged into its base. */
  ahead: number;
}

/**
 * `rein worktrees`: the workspace's worktrees from the log (name, path, branch, base, task, state)
 * with their files' state computed now by git (clean, dirty, ahead of base by N; not folded), and
 * the course's `.worktrees/<name>` that git knows; with `json`, as JSON. Removed ones are listed
 * only with `all`. Reads the log, never writes it; runs git read-only.
 */
export async function worktreesCommand(
  path: string,
  workspace: string,
  options: { json: boolean; all?: boolean },
  io: CommandIo,
): Promise<number> {
  let slice: WorktreeCatalog;
  let catalog: Catalog | undefined;
  try {
    const fold = await foldCatalog(path, {
      onNotice: (message) => io.stderr.write(`${message}\n`),
      catalogProjections: reinCatalogProjections(),
    });
    catalog = fold.catalog;
    slice = catalogSliceOf(fold.catalog, worktreeCatalogProjection);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    slice = { byName: {}, order: [] };
  }
  const listed: ListedWorktree[] = [];
  for (const name of slice.order) {
    const entry = slice.byName[name] as WorktreeEntry;
    if (entry.state === "removed" && options.all !== true) continue;
    const root = (catalog?.byId[entry.createdBy.session]?.workspace) ?? workspace;
    listed.push(await withState(entry, root));
  }
  listed.push(...await unrecordedWorktrees(workspace, listed));
  if (options.json) {
    io.stdout.write(`${JSON.stringify(listed, null, 2)}\n`);
    return 0;
  }
  if (listed.length === 0) {
    io.stdout.write(`No worktrees in ${path}\n`);
    return 0;
  }
  for (const item of listed) io.stdout.write(`${line(item, workspace)}\n`);
  return 0;
}

async function withState(entry: WorktreeEntry, workspace: string): Promise<ListedWorktree> {
  const listed: ListedWorktree = {
    name: entry.name,
    path: join(workspace, entry.path),
    branch: entry.branch,
    base: entry.base,
    task: entry.task,
    state: entry.state,
    files: "unknown",
    dirty: [],
    ahead: 0,
  };
  if (entry.state === "removed") return { ...listed, files: "missing" };
  if (!await isFolder(listed.path)) return { ...listed, files: "missing" };
  const changes = await new WorktreeGit(workspace).changes(
    entry.path,
    entry.branch,
    entry.base,
    entry.baseCommit,
  );
  if (!changes.ok) return listed;
  const { files, commits } = changes.value;
  return {
    ...listed,
    files: files.length === 0 ? "clean" : "dirty",
    dirty: files,
    ahead: commits.length,
  };
}

/**
 * The worktrees git knows under `.claude/worktrees/` or the course's `.worktrees/` that are not
 * in `known`, with their files' state.
 */
async function unrecordedWorktrees(
  workspace: string,
  known: readonly ListedWorktree[],
): Promise<ListedWorktree[]> {
  const git = new WorktreeGit(workspace);
  const list = await git.list();
  if (!list.ok) return [];
  const real = await Deno.realPath(workspace).catch(() => workspace);
  const found: ListedWorktree[] = [];
  for (const { path, branch } of list.value) {
    const name = [WORKTREES_DIR, COURSE_WORKTREES_DIR].map((dir) => relative(join(real, dir), path))
      .find((name) => name !== "" && !name.startsWith(".."));
    if (name === undefined || known.some((item) => item.path === path)) continue;
    const status = await git.dirtyFiles(path);
    const dirty = status.ok ? status.value : [];
    found.push({
      name,
      path,
      branch,
      base: null,
      task: null,
      state: "unrecorded",
      files: !status.ok ? "unknown" : dirty.length === 0 ? "clean" : "dirty",
      dirty,
      ahead: 0,
    });
  }
  return found;
}

function line(item: ListedWorktree, workspace: string): string {
  const count = item.dirty.length;
  const files = item.files === "dirty"
    ? `dirty (${count} file${count === 1 ? "" : "s"})`
    : item.files;
  const ahead = item.ahead === 0 ? "" : `, ahead of ${item.base} by ${item.ahead}`;
  const task = item.task === null ? "" : `  task #${item.task}`;
  const branch = item.branch === null ? "" : `  ${item.branch}`;
  return `${item.name}  ${item.state}  ${files}${ahead}${branch}  ${
    relative(workspace, item.path)
  }${task}`;
}

async function isFolder(path: string): Promise<boolean> {
  return await Deno.stat(path).then((info) => info.isDirectory, () => false);
}
