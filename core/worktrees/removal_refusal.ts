import type { WorktreeChanges } from "./worktree_git.ts";

/** How many files or commits a refusal lists before it says how many more there are. */
const LISTED = 20;

/**
 * Why worktree `name` is not removed while it holds `changes`, listing them (its uncommitted
 * files, its commits not merged into `base`), or undefined when it holds none. Pure.
 */
export function removalRefusal(
  name: string,
  base: string,
  changes: WorktreeChanges,
): string | undefined {
  const { files, commits } = changes;
  if (files.length === 0 && commits.length === 0) return undefined;
  const parts: string[] = [];
  if (files.length > 0) {
    parts.push(`${count(files.length, "file")} with uncommitted changes:\n${listed(files)}`);
  }
  if (commits.length > 0) {
    parts.push(`${count(commits.length, "commit")} not merged into ${base}:\n${listed(commits)}`);
  }
  return `Worktree "${name}" was not removed: it has ${parts.join("\nand ")}\n` +
    "Commit and merge what is to be kept, or call again with discard_changes: true to throw " +
    "it away.";
}

function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? "" : "s"}`;
}

function listed(items: readonly string[]): string {
  const shown = items.slice(0, LISTED).map((item) => `  ${item}`);
  if (items.length > LISTED) shown.push(`  … and ${items.length - LISTED} more`);
  return shown.join("\n");
}
