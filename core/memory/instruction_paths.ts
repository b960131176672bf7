import { dirname, join, resolve } from "../../events/posix_path.ts";

/**
 * The directories whose instruction files a session reads, outermost first: from the workspace up
 * to the nearest directory holding `.git` (the repository root) or the home directory, whichever
 * comes first, both included. When the walk finds neither, only the workspace. Reads the disk
 * (one `lstat` per directory); never throws.
 */
export async function projectDirectories(
  workspace: string,
  home: string | undefined,
): Promise<string[]> {
  const start = resolve(workspace);
  const stop = home === undefined ? undefined : resolve(home);
  const dirs: string[] = [];
  for (let dir = start;; dir = dirname(dir)) {
    dirs.push(dir);
    if (dir === stop || await exists(join(dir, ".git"))) return dirs.reverse();
    if (dirname(dir) === dir) return [start];
  }
}

/**
 * The instruction files to look for, in the order they go into the prompt: the user's own
 * (`~/.claude/CLAUDE.md`), then each directory's `CLAUDE.md`, `.claude/CLAUDE.md` and `AGENTS.md`
 * from the outermost directory down to the workspace, and the personal `CLAUDE.local.md` files
 * last (outermost first), so the most specific instructions come latest. Pure.
 */
export function instructionPaths(dirs: readonly string[], home: string | undefined): string[] {
  return [
    ...home === undefined ? [] : [join(home, ".claude", "CLAUDE.md")],
    ...dirs.flatMap((dir) => [
      join(dir, "CLAUDE.md"),
      join(dir, ".claude", "CLAUDE.md"),
      join(dir, "AGENTS.md"),
    ]),
    ...dirs.map((dir) => join(dir, "CLAUDE.local.md")),
  ];
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}
