import { isAbsolute, join } from "../../events/posix_path.ts";
import { isInside } from "../files/is_inside.ts";
import type { ProbedPath } from "./_probe_paths.ts";
import type { HiddenPath, VisiblePath } from "./bwrap_args.ts";

/** The system's folders a shell and its programs (bash, coreutils, rg, git) need. */
const SYSTEM = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"];

/**
 * git's own configuration in the home: the person's identity (a commit needs it), ignores and
 * attributes. Its credentials (`~/.git-credentials`, `~/.config/git/credentials`) are not here.
 */
const GIT_CONFIG = [
  ".gitconfig",
  ".config/git/config",
  ".config/git/ignore",
  ".config/git/attributes",
];

/**
 * Where systemd-resolved keeps the file /etc/resolv.conf links to: without it a command with the
 * network could not look a name up.
 */
const RESOLVER = "/run/systemd/resolve";

/**
 * The host paths a confined sandbox may show, whether or not they exist: the system's folders,
 * git's configuration in `home`, and the resolver's folder when commands have the network. Pure.
 */
export function visibleCandidates(home: string | undefined, network: boolean): string[] {
  const paths = [...SYSTEM];
  if (home && isAbsolute(home)) paths.push(...GIT_CONFIG.map((entry) => join(home, entry)));
  if (network) paths.push(RESOLVER);
  return paths;
}

/**
 * What a confined sandbox shows, from `candidates` as probed (`probed[i]`, undefined where
 * nothing is): each one read-only, a folder that is a link into another shown folder (`/bin` to
 * `/usr/bin`) as a link, then `workspace` read-only (a folder in it may be bound writable over
 * it: a worktree's own .git lives in the workspace's). Pure.
 */
export function visiblePaths(
  candidates: readonly string[],
  probed: readonly (ProbedPath | undefined)[],
  workspace: string,
): VisiblePath[] {
  const found = candidates.flatMap((path, i) => {
    const entry = probed[i];
    return entry === undefined ? [] : [{ path, real: entry.real }];
  });
  const bound = found.filter(({ path, real }) => path === real).map(({ path }) => path);
  const visible = found.map(({ path, real }): VisiblePath =>
    path !== real && bound.some((dir) => isInside(dir, real)) ? { path, link: real } : { path }
  );
  return [...visible, { path: workspace }];
}

/**
 * The masks a confined sandbox still needs: those over a path it shows (bound read-only, writable
 * or read-only); any other is simply not there. Pure.
 */
export function hiddenInside(
  hidden: readonly HiddenPath[],
  visible: readonly VisiblePath[],
  bound: readonly string[],
): HiddenPath[] {
  const shown = [
    ...visible.filter(({ link }) => link === undefined).map(({ path }) => path),
    ...bound,
  ];
  return hidden.filter(({ path }) => shown.some((dir) => isInside(dir, path)));
}
