import { join, relative, resolve } from "../../events/posix_path.ts";
import type { FilePlace } from "./file_place.ts";
import { isInside } from "./is_inside.ts";

/** Where the files a session reads at start may lead, for `readConfined`. */
export interface StartBounds {
  /** The workspace, as real paths (see {@link realRoots}). */
  workspace: string[];
  /**
   * Where the person's own files (`~/.claude/CLAUDE.md`, its imports, `~/.claude/agents`,
   * `~/.claude/skills`) may lead: anywhere in the home directory (a dotfiles checkout linked into
   * `~/.claude` included) or in `~/.claude` wherever it lies. None without a home directory.
   */
  personal: string[];
  /** Credential stores, never read wherever they lie: as named, and as real paths. */
  credentials: string[];
}

const known = new WeakMap<FilePlace, Promise<StartBounds>>();

/**
 * The bounds of `place`, worked out once per place (each mechanism's `readFiles` gets the same
 * place). Reads the disk (real paths); never throws.
 */
export function startBounds(place: FilePlace): Promise<StartBounds> {
  let bounds = known.get(place);
  if (!bounds) {
    bounds = boundsOf(place);
    known.set(place, bounds);
  }
  return bounds;
}

async function boundsOf(place: FilePlace): Promise<StartBounds> {
  const { home } = place;
  const [workspace, personal, realHome] = await Promise.all([
    realRoots(place.workspace),
    home === undefined
      ? Promise.resolve([])
      : Promise.all([realRoots(home), realRoots(join(home, ".claude"))]).then((r) => r.flat()),
    home === undefined ? Promise.resolve(undefined) : realOrUndefined(home),
  ]);
  const named = (place.credentials ?? []).flatMap((path) =>
    home === undefined || realHome === undefined || !isInside(resolve(home), path)
      ? [path]
      : [path, join(realHome, relative(resolve(home), path))]
  );
  const real = await Promise.all(named.map(realOrUndefined));
  const credentials = [...named, ...real.filter((path) => path !== undefined)];
  return { workspace, personal: [...new Set(personal)], credentials: [...new Set(credentials)] };
}

/**
 * `folder` as a root for `readConfined`: its real path, and the path as given (resolved) for
 * when the real path cannot be told (no permission to read above it). Reads the disk; never
 * throws.
 */
export async function realRoots(folder: string): Promise<string[]> {
  const given = resolve(folder);
  const real = await realOrUndefined(given);
  return real === undefined || real === given ? [given] : [real, given];
}

async function realOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await Deno.realPath(path);
  } catch {
    return undefined;
  }
}
