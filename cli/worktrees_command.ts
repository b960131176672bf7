import { join, relative } from "node:path";
import { reinCatalogProjections } from "../core/harness.ts";
import { foldCatalog } from "../core/snapshots/mod.ts";
import type { Catalog } from "../core/state/catalog.ts";
import {
  COURSE_WORKTREES_DIR,
  type WorktreeCatalog,
  worktreeCatalogProjection,
  type WorktreeEntry,
  WorktreeGit,
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
  /** In the log: active, kept or removed; `course` for a `.worktrees/<name>` rein did not make. */
  state: WorktreeEntry["state"] | "course";
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
  listed.push(...await courseWorktrees(workspace, listed));
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

/** The course's worktrees (`.worktrees/<name>`) git knows and the log does not. */
async function courseWorktrees(
  workspace: string,
  known: readonly ListedWorktree[],
): Promise<ListedWorktree[]> {
  if (!await isFolder(join(workspace, COURSE_WORKTREES_DIR))) return [];
  const git = new WorktreeGit(workspace);
  const list = await git.list();
  if (!list.ok) return [];
  const under = join(await Deno.realPath(workspace), COURSE_WORKTREES_DIR);
  const found: ListedWorktree[] = [];
  for (const folder of list.value) {
    const name = relative(under, folder);
    if (name === "" || name.startsWith("..") || known.some((item) => item.path === folder)) {
      continue;
    }
    const status = await git.git(
      ["status", "--porcelain=v1", "-z", "--untracked-files=all"],
      folder,
    );
    const dirty = status.code === 0 ? status.stdout.split("\0").filter((f) => f.length > 3) : [];
    found.push({
      name,
      path: folder,
      branch: null,
      base: null,
      task: null,
      state: "course",
      files: status.code !== 0 ? "unknown" : dirty.length === 0 ? "clean" : "dirty",
      dirty: dirty.map((field) => field.slice(3)),
      ahead: 0,
    });
  }
  return found;
}

function line(item: ListedWorktree, workspace: string): string {
  const files = item.files === "dirty" ? `dirty (${item.dirty.length} files)` : item.files;
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
