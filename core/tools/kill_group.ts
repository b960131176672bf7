/**
 * SIGKILLs the process group led by `pid`; returns whether a process was there to kill. Under
 * the launcher's narrowed `--allow-run` Deno refuses `Deno.kill`, so bash's `kill` does it then
 * (bash is a program rein may run).
 */
export function killGroup(pid: number): boolean {
  try {
    Deno.kill(-pid, "SIGKILL");
    return true;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotCapable)) return false;
  }
  return new Deno.Command("bash", {
    args: ["-c", 'kill -KILL -- "-$1" 2>/dev/null', "rein-kill", String(pid)],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).outputSync().success;
}
