import { dirname, join } from "../../events/posix_path.ts";
import type { RecordedFile } from "../../events/event_types.ts";
import { readConfined } from "../files/read_confined.ts";
import { realRoots } from "../files/start_bounds.ts";

/** The `source` of the git HEAD file recorded with a session. */
export const GIT_HEAD_SOURCE = "environment.git";

/** The whole of a HEAD file: a branch or a commit, on one line. */
const HEAD_FILE = /^(ref:\s*refs\/\S+|[0-9a-f]{7,64})\s*$/;

/** The most of a `.git` file or a HEAD file read: both are one short line. */
const MAX_GIT_FILE_BYTES = 4096;

/**
 * The HEAD file of the git repository the workspace is in (`.git/HEAD`, or the one a `.git` file
 * points to in a worktree), read as it is now; none outside a repository. A repository may be
 * hostile: each file is read confined (`readConfined`) to its folder (the `.git` file to its
 * directory, HEAD to its git dir), never from a credential store, only a regular file (a named
 * pipe is not waited on) and at most a few KB; and HEAD is recorded only when it reads as one
 * (a branch or a commit), so a link to some other file puts none of its text in the log. A file
 * skipped so is reported through `onNotice`. Never throws.
 */
export async function readGitHead(
  workspace: string,
  options: { credentials?: readonly string[]; onNotice?: (message: string) => void } = {},
): Promise<RecordedFile[]> {
  const read = async (path: string, folder: string) => {
    const got = await readConfined(path, {
      roots: await realRoots(folder),
      credentials: options.credentials ?? [],
      maxBytes: MAX_GIT_FILE_BYTES,
    });
    if (got.ok && got.size <= MAX_GIT_FILE_BYTES) return new TextDecoder().decode(got.bytes);
    if (got.ok) {
      options.onNotice?.(`Skipped git's "${path}": it is over ${MAX_GIT_FILE_BYTES} bytes`);
      return undefined;
    }
    if (got.problem !== "missing") options.onNotice?.(`Skipped git's "${path}": ${got.why}`);
    return undefined;
  };
  for (let dir = workspace;; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const info = await Deno.stat(dotGit).catch(() => undefined);
    if (info !== undefined) {
      let gitDir = dotGit;
      if (info.isFile) {
        const pointer = await read(dotGit, dir) ?? "";
        const target = /^gitdir:\s*(.+)$/m.exec(pointer)?.[1]?.trim();
        if (target === undefined) return [];
        gitDir = target.startsWith("/") ? target : join(dir, target);
      }
      const head = join(gitDir, "HEAD");
      const text = await read(head, gitDir);
      if (text === undefined) return [];
      if (!HEAD_FILE.test(text)) {
        options.onNotice?.(`Skipped git's "${head}": it is not a HEAD file (a branch or a commit)`);
        return [];
      }
      return [{ source: GIT_HEAD_SOURCE, path: head, text }];
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
