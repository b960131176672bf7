import type { GitMount } from "./git_mounts.ts";

/** A path to hide from commands, and whether it is a directory (covered by an empty tmpfs). */
export interface HiddenPath {
  path: string;
  kind: "directory" | "file";
}

/**
 * A host path commands see read-only at the same place, or, when it is a symbolic link (`/bin` to
 * `usr/bin`), the same link.
 */
export interface VisiblePath {
  path: string;
  /** The link's target, as the link holds it; absent for a folder or file bound read-only. */
  link?: string | undefined;
}

/** Everything needed to build a bwrap command line. Paths are absolute. */
export interface SandboxConfig {
  /** The bwrap program, a path or a name found on PATH. */
  bwrap: string;
  /** The directory commands start in. */
  workspace: string;
  /** Directories commands may change, existing: the workspace first, then the additional ones. */
  writable: readonly string[];
  /**
   * The mounts that guard git's code and configuration in the writable directories (see
   * `gitDirMounts`), in order, over existing paths.
   */
  gitMounts: readonly GitMount[];
  /**
   * Paths in a writable git dir that no mount can keep commands from creating and that must not
   * exist once a call has ended (a `commondir` the git dir had none of).
   */
  tripwires: readonly string[];
  /** Paths inside writable directories that commands may read but not change (`.rein/`), existing. */
  readOnly: readonly string[];
  /** Credentials commands must not read, existing: masked by an empty tmpfs or /dev/null. */
  hidden: readonly HiddenPath[];
  /** Whether commands may use the network (shared with the host) or get none (`--unshare-net`). */
  network: boolean;
  /**
   * What of the host commands see read-only, under everything above: absent, the whole root (the
   * lead's sandbox); given (a teammate's), only these, on an empty root made read-only once every
   * mount is in place, so the rest of the machine (the person's home, /var, /opt…) is not there.
   */
  visible?: readonly VisiblePath[] | undefined;
}

/**
 * bwrap's options (everything before `--` and the command) for one bash call: the host's root
 * read-only with fresh /dev and /proc and a private /tmp (or those, then only `config.visible`
 * read-only), then the writable directories, git's mounts in them, the read-only paths inside
 * them and the masks, in that order because later mounts cover earlier ones. `readable` are host files (a long command's script) bound read-only at their own paths,
 * last, so they are visible even under the private /tmp.
 *
 * The call gets its own PID namespace whose init dies with bwrap (`--die-with-parent`), so no
 * process it starts, not even one that calls setsid, outlives it; `--new-session` keeps it from
 * a terminal; `--cap-drop ALL` matters when rein runs as root, whose capabilities bwrap would
 * otherwise keep (a remount would undo the read-only root). Pure.
 */
export function bwrapArgs(config: SandboxConfig, readable: readonly string[] = []): string[] {
  const { visible } = config;
  const args = visible === undefined ? ["--ro-bind", "/", "/"] : [];
  args.push("--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp");
  // After the private /tmp, which would cover a workspace (or a home) in the host's /tmp.
  for (const { path, link } of visible ?? []) {
    if (link === undefined) args.push("--ro-bind", path, path);
    else args.push("--symlink", link, path);
  }
  for (const dir of config.writable) args.push("--bind", dir, dir);
  for (const { path, access } of config.gitMounts) {
    args.push(access === "pinned" ? "--bind" : "--ro-bind", path, path);
  }
  for (const path of config.readOnly) args.push("--ro-bind", path, path);
  for (const { path, kind } of config.hidden) {
    if (kind === "directory") args.push("--tmpfs", path);
    else args.push("--ro-bind", "/dev/null", path);
  }
  for (const file of readable) args.push("--ro-bind", file, file);
  // The empty root holds the mount points made above; nothing else may be made there.
  if (visible !== undefined) args.push("--remount-ro", "/");
  args.push("--unshare-pid", "--unshare-ipc");
  if (!config.network) args.push("--unshare-net");
  args.push("--die-with-parent", "--new-session", "--cap-drop", "ALL");
  args.push("--chdir", config.workspace);
  return args;
}
