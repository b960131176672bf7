import { isAbsolute, relative, resolve } from "../../events/posix_path.ts";
import type { State } from "../state/state.ts";
import { isInside } from "../files/is_inside.ts";
import { plural } from "./_format.ts";

/**
 * Whether a file is one the agent may not read (a `Read` deny rule covers it), given its names:
 * paths relative to the workspace (as the permission rules anchor them) or absolute. It is denied
 * when any name is. Synchronous and pure: it is asked once per file a search comes across.
 */
export type ReadDenyJudge = (names: readonly string[]) => boolean;

/**
 * The judge for `tool`'s calls in a session now, from its recorded permissions; null when nothing
 * is denied (no `Read` deny rule, nor one of the tool's own), so a search skips no file and checks
 * none. Given to grep and glob by the composition root (core/permissions' `readDeniedJudge`): the
 * tools cannot name the permissions mechanism themselves.
 */
export type ReadDenySource = (
  state: State,
  session: string,
  tool: string,
  /** The agent searching: names are relative to where it works. */
  agent?: string,
) => Promise<ReadDenyJudge | null>;

/** A file a search came across: as the walker yields it, or the one file a path names. */
export interface SearchedFile {
  /** Relative to the workspace's real root, with `/` separators. */
  relative: string;
  /** Real path, symlinks resolved. */
  realPath: string;
}

/**
 * Every name of `file` a deny rule may be written against: its path in the workspace as the
 * search reached it (and as the caller's `path` spelled it, when that led through a symlinked
 * directory: `alias` maps one to the other), and its real path, absolute and in the workspace.
 * Pure.
 */
export function searchedNames(
  root: string,
  file: SearchedFile,
  alias?: PathAlias,
): string[] {
  const names = [file.relative, file.realPath];
  if (isInside(root, file.realPath)) {
    const real = relative(root, file.realPath).replaceAll("\\", "/");
    if (real !== file.relative) names.push(real);
  }
  if (alias !== undefined) {
    if (alias.real === ".") names.push(`${alias.named}/${file.relative}`);
    else if (file.relative === alias.real) names.push(alias.named);
    else if (file.relative.startsWith(`${alias.real}/`)) {
      names.push(`${alias.named}${file.relative.slice(alias.real.length)}`);
    }
  }
  return names;
}

/** A search path as the caller wrote it and where it really is, both relative to the root. */
export interface PathAlias {
  named: string;
  real: string;
}

/**
 * The alias of the search path `userPath` when it differs from its real path `real` (it leads
 * through a symlink), else undefined. Pure.
 */
export function pathAlias(root: string, userPath: string, real: string): PathAlias | undefined {
  const lexical = isAbsolute(userPath) ? resolve(userPath) : resolve(root, userPath);
  if (!isInside(root, lexical)) return undefined;
  const named = relative(root, lexical).replaceAll("\\", "/") || ".";
  return named === real ? undefined : { named, real };
}

/** The note for files a search left out because a `Read` deny rule covers them. Pure. */
export function readDeniedNote(count: number, what: "searched" | "listed"): string {
  return `[${plural(count, "file")} not ${what}: ${
    count === 1 ? "a Read deny rule covers it" : "Read deny rules cover them"
  }]`;
}
