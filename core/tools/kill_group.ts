import { isUnreapedSessionChild } from "./own_session_command.ts";

/**
 * SIGKILLs the process group led by `pid`; resolves to whether a process was there to kill. When
 * there is no such group but `pid` is a live child of `spawnInOwnSession` that has not called
 * setsid() yet, `pid` itself is killed: it has started nothing. (Any other pid is left alone: it
 * may have been reused.) Under
 * the launcher's narrowed `--allow-run` Deno refuses `Deno.kill`, so bash's `kill` does it then
 * (bash is a program rein may run), without blocking the event loop while it runs: a caller
 * that waits for other things (a call's pipes) waits for both at once.
 */
export function killGroup(pid: number): Promise<boolean> {
  try {
    try {
      Deno.kill(-pid, "SIGKILL");
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound) || !isUnreapedSessionChild(pid)) throw error;
      Deno.kill(pid, "SIGKILL");
    }
    return Promise.resolve(true);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotCapable)) return Promise.resolve(false);
  }
  const orPid = isUnreapedSessionChild(pid) ? ' || kill -KILL -- "$1" 2>/dev/null' : "";
  return new Deno.Command("bash", {
    args: ["-c", `kill -KILL -- "-$1" 2>/dev/null${orPid}`, "rein-kill", String(pid)],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).output().then((output) => output.success, () => false);
}
