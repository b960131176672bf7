import ignore, { type Ignore } from "ignore";
import { join, relative, sep } from "../../events/posix_path.ts";

/** Directory (or file) names never walked into, at any depth. */
const ALWAYS_SKIPPED = new Set([".git", ".rein"]);

/** A file found by {@link walkFiles}. */
export interface WalkedFile {
  /** Absolute path of the file (the link's own path for a symlinked file). */
  path: string;
  /** Real path to read, symlinks resolved; inside the workspace. */
  realPath: string;
  /** Path relative to the workspace root, with `/` separators. */
  relative: string;
}

/** Where {@link walkFiles} walks. */
export interface WalkOptions {
  /** The workspace's real root: where the root .gitignore lives and what paths are relative to. */
  root: string;
  /** Real path of the directory to walk; `root` or a directory inside it. */
  start: string;
  /** Stops the walk early when aborted. */
  signal?: AbortSignal;
}

interface IgnoreScope {
  /** Directory of the .gitignore, relative to the root with `/` separators ("" for the root). */
  base: string;
  rules: Ignore;
}

/**
 * Yields every file under `start`, in name order, that git would not ignore: `.gitignore` files
 * of `start`, its ancestors up to `root` and every directory below apply, nested ones taking
 * precedence as in git. `.git/` and `.rein/` are always skipped. Symlinks to files inside the
 * workspace are yielded; symlinked directories and links leading outside are not followed. A
 * directory named explicitly as `start` is walked even if ignored. Unreadable directories are
 * skipped. Stops between entries once `signal` aborts. Never throws. Files are found by name:
 * open them with `openVerified`, which checks that what it opened is still inside.
 */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<WalkedFile> {
  const { root, start, signal } = options;
  const startRelative = toSlashes(relative(root, start));
  let scopes = await ancestorScopes(root, startRelative);
  if (startRelative !== "" && isIgnored(scopes, startRelative, true)) scopes = [];
  yield* walkDirectory(root, start, scopes, signal);
}

async function* walkDirectory(
  root: string,
  dir: string,
  inherited: IgnoreScope[],
  signal: AbortSignal | undefined,
): AsyncGenerator<WalkedFile> {
  if (signal?.aborted) return;
  const dirRelative = toSlashes(relative(root, dir));
  const own = await loadScope(dir, dirRelative);
  const scopes = own ? [...inherited, own] : inherited;
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (signal?.aborted) return;
    if (ALWAYS_SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    const rel = dirRelative === "" ? entry.name : `${dirRelative}/${entry.name}`;
    if (entry.isDirectory) {
      if (!isIgnored(scopes, rel, true)) yield* walkDirectory(root, path, scopes, signal);
    } else if (!isIgnored(scopes, rel, false)) {
      const realPath = entry.isSymlink ? await symlinkedFileInside(root, path) : path;
      if (realPath !== null) yield { path, realPath, relative: rel };
    }
  }
}

/** The real path of a symlinked regular file inside `root`, else null. */
async function symlinkedFileInside(root: string, path: string): Promise<string | null> {
  try {
    const real = await Deno.realPath(path);
    const rel = relative(root, real);
    if (rel === ".." || rel.startsWith(`..${sep}`) || rel.startsWith(sep)) return null;
    return (await Deno.stat(real)).isFile ? real : null;
  } catch {
    return null;
  }
}

/** Scopes of the .gitignore files in the root and each directory down to `startRelative`. */
async function ancestorScopes(root: string, startRelative: string): Promise<IgnoreScope[]> {
  const scopes: IgnoreScope[] = [];
  const parts = startRelative === "" ? [] : startRelative.split("/");
  for (let depth = 0; depth < parts.length; depth++) {
    const base = parts.slice(0, depth).join("/");
    const scope = await loadScope(join(root, base), base);
    if (scope) scopes.push(scope);
  }
  return scopes;
}

async function loadScope(dir: string, base: string): Promise<IgnoreScope | null> {
  try {
    return { base, rules: ignore().add(await Deno.readTextFile(join(dir, ".gitignore"))) };
  } catch {
    return null;
  }
}

/** Git's rule: the deepest .gitignore with an opinion on the path decides. */
function isIgnored(scopes: IgnoreScope[], rel: string, isDirectory: boolean): boolean {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const scope = scopes[i];
    if (!scope) continue;
    const local = scope.base === "" ? rel : rel.slice(scope.base.length + 1);
    const verdict = scope.rules.test(isDirectory ? `${local}/` : local);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

function toSlashes(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}
