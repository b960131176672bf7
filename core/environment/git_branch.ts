import { dirname, join } from "node:path";
import type { RecordedFile } from "../../events/event_types.ts";

/** The `source` of the git HEAD file recorded with a session. */
export const GIT_HEAD_SOURCE = "environment.git";

/**
 * The HEAD file of the git repository the workspace is in (`.git/HEAD`, or the one a `.git` file
 * points to in a worktree), read as it is now; none outside a repository. Never throws.
 */
export async function readGitHead(workspace: string): Promise<RecordedFile[]> {
  for (let dir = workspace;; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const info = await Deno.stat(dotGit).catch(() => undefined);
    if (info !== undefined) {
      let gitDir = dotGit;
      if (info.isFile) {
        const pointer = await Deno.readTextFile(dotGit).catch(() => "");
        const target = /^gitdir:\s*(.+)$/m.exec(pointer)?.[1]?.trim();
        if (target === undefined) return [];
        gitDir = target.startsWith("/") ? target : join(dir, target);
      }
      const head = join(gitDir, "HEAD");
      const text = await Deno.readTextFile(head).catch(() => undefined);
      return text === undefined ? [] : [{ source: GIT_HEAD_SOURCE, path: head, text }];
    }
    if (dirname(dir) === dir) return [];
  }
}

/** "on branch main", "detached at 1a2b3c4", from a HEAD file's text; undefined if unreadable. */
export function describeHead(text: string): string | undefined {
  const ref = /^ref:\s*refs\/heads\/(.+)$/m.exec(text)?.[1]?.trim();
  if (ref) return `on branch ${ref}`;
  const sha = /^([0-9a-f]{7,64})\s*$/m.exec(text)?.[1];
  return sha ? `detached at ${sha.slice(0, 7)}` : undefined;
}
