/**
 * Whether `setsid` can start commands here: unknown until the first spawn, false once it was
 * missing or not permitted (and the fallback worked).
 */
let setsidUsable: boolean | undefined;

/** Children started through `setsid` whose exit Deno has not reported yet (so not reaped). */
const unreaped = new Set<number>();

/**
 * Whether `pid` is a child {@link spawnInOwnSession} started through `setsid` that has not
 * exited (its pid cannot have been reused). Such a child may not lead its group yet.
 */
export function isUnreapedSessionChild(pid: number): boolean {
  return unreaped.has(pid);
}

/**
 * Starts `program` with `options` as the leader of a new session and process group, as
 * `detached: true` does (Ctrl-C in rein's terminal does not reach it, and `killGroup(child.pid)`
 * reaches everything it starts), but without forking rein. Deno spawns a `detached` child by
 * `fork`, which copies the page tables of the whole agent process (about 5 ms at 100 MB), and
 * any other child by `posix_spawn` (vfork). So it spawns util-linux's `setsid PROGRAM …`, which
 * calls setsid() and execs the program in the same process (it forks only when it already leads
 * a group, which a freshly spawned child never does): the child's pid is the group's. Where
 * `setsid` is missing or not permitted (`--allow-run` without it), it falls back to `detached`,
 * remembered for the rest of the process. Throws what `spawn` throws.
 *
 * Until the child has called setsid() (its first instructions), it leads no group: `killGroup`
 * then kills the pid itself, which has started nothing (see {@link isUnreapedSessionChild}).
 */
export function spawnInOwnSession(
  program: string,
  options: Deno.CommandOptions,
): Deno.ChildProcess {
  const detached = () => new Deno.Command(program, { ...options, detached: true }).spawn();
  if (setsidUsable === false) return detached();
  let missing: boolean;
  try {
    const child = new Deno.Command("setsid", {
      ...options,
      args: ["--", program, ...(options.args ?? [])],
      detached: false,
    }).spawn();
    setsidUsable = true;
    unreaped.add(child.pid);
    child.status.then(() => unreaped.delete(child.pid), () => unreaped.delete(child.pid));
    return child;
  } catch (error) {
    missing = error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotCapable ||
      error instanceof Deno.errors.PermissionDenied;
  }
  // Whatever failed, the program is started the old way: a failure that is not about setsid (a
  // missing working directory) is then thrown naming the program, and does not turn setsid off.
  const child = detached();
  if (missing && setsidUsable === undefined) setsidUsable = false;
  return child;
}
