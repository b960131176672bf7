/**
 * POSIX path arithmetic, answering as `node:path` does on Linux and macOS (a property test holds
 * the two together on arbitrary paths): `join`, `resolve`, `dirname`, `basename`, `extname`,
 * `relative`, `normalize`, `isAbsolute` and `sep`.
 *
 * rein's own: importing `node:path` makes Deno load its Node-compatibility path module at start
 * (with its Windows half), about a tenth of what the launch of the installed command costs above
 * a bare Deno, for string work this module does in a page. Pure, except that `resolve` of a
 * relative path reads the current directory, as `node:path` does.
 *
 * @module
 */

/** The path separator. */
export const sep = "/";

/** Whether `path` is absolute (starts with `/`). Pure. */
export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}

/**
 * The segments of `path` with `.` and empty ones dropped and each `..` taking back the segment
 * before it; a `..` with nothing to take back is kept when `keepLeadingUps` (a relative path),
 * dropped otherwise (it would climb above the root). Pure.
 */
function cleanSegments(path: string, keepLeadingUps: boolean): string[] {
  const kept: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") {
      kept.push(segment);
    } else if (kept.length > 0 && kept[kept.length - 1] !== "..") {
      kept.pop();
    } else if (keepLeadingUps) {
      kept.push("..");
    }
  }
  return kept;
}

/**
 * `path` with repeated slashes, `.` segments and resolvable `..` segments removed; a trailing
 * slash is kept; the empty path is `.`. Pure.
 */
export function normalize(path: string): string {
  if (path === "") return ".";
  const absolute = isAbsolute(path);
  const trailing = path.endsWith("/");
  const body = cleanSegments(path, !absolute).join("/");
  if (body === "") return absolute ? "/" : trailing ? "./" : ".";
  return `${absolute ? "/" : ""}${body}${trailing ? "/" : ""}`;
}

/** The non-empty `parts` joined with `/` and normalized; `.` when there are none. Pure. */
export function join(...parts: string[]): string {
  const joined = parts.filter((part) => part !== "").join("/");
  return joined === "" ? "." : normalize(joined);
}

/**
 * The absolute path that `parts` lead to, read right to left up to the first absolute one (the
 * current directory when there is none), normalized without a trailing slash.
 */
export function resolve(...parts: string[]): string {
  let path = "";
  for (let i = parts.length - 1; i >= -1 && !isAbsolute(path); i--) {
    const part = i >= 0 ? parts[i] ?? "" : Deno.cwd();
    if (part !== "") path = path === "" ? part : `${part}/${path}`;
  }
  if (isAbsolute(path)) return `/${cleanSegments(path, false).join("/")}`;
  return cleanSegments(path, true).join("/") || ".";
}

/** The end of `path`'s last segment: its length less any trailing slashes (never below 1). */
function endOfLast(path: string): number {
  let end = path.length;
  while (end > 1 && path[end - 1] === "/") end--;
  return end;
}

/**
 * The folder part of `path`: all before the slash that precedes its last segment (trailing
 * slashes are not a segment); `.` when there is none, `/` for the root. Pure.
 */
export function dirname(path: string): string {
  if (path === "") return ".";
  const slash = path.lastIndexOf("/", endOfLast(path) - 1);
  const rooted = isAbsolute(path);
  if (slash <= 0) return rooted ? "/" : ".";
  if (rooted && slash === 1) return "//";
  return path.slice(0, slash);
}

/** The last segment of `path`, trailing slashes left out (`""` for the root). Pure. */
export function basename(path: string): string {
  const end = endOfLast(path);
  const last = path.slice(path.lastIndexOf("/", end - 1) + 1, end);
  return last === "/" ? "" : last;
}

/**
 * The extension of `path`'s last segment: from its last `.` on, unless that `.` begins the
 * segment's name (`.bashrc` has none, nor has `..`). Pure.
 */
export function extname(path: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf(".");
  if (dot <= 0 || name === "..") return "";
  return name.slice(dot);
}

/**
 * The relative path from `from` to `to`, both resolved first: `..` for each of `from`'s
 * segments past their common part, then the rest of `to`; `""` when they are the same.
 */
export function relative(from: string, to: string): string {
  const fromSegments = cleanSegments(resolve(from), false);
  const toSegments = cleanSegments(resolve(to), false);
  let common = 0;
  while (
    common < fromSegments.length && common < toSegments.length &&
    fromSegments[common] === toSegments[common]
  ) common++;
  const ups: string[] = Array(fromSegments.length - common).fill("..");
  return [...ups, ...toSegments.slice(common)].join("/");
}
