import type { BashToolDeps } from "./bash_sandbox.ts";
import { commandEnv } from "./command_env.ts";
import { spawnInOwnSession } from "./own_session_command.ts";

/**
 * Runs `bash "$@"` as a child and exits with its status; on SIGTERM (sent by the kernel when
 * the agent dies, via setpriv's parent-death signal) kills its own process group.
 */
const SUPERVISOR = `trap 'kill -KILL -- -$$' TERM; bash "$@" & wait $!`;

/** The longest command passed to bash as an argument; longer ones go in a script file. */
const ARGUMENT_MAX = 64 * 1024;

/** How long to keep reading after the command ends, for pipes held by escaped processes. */
const PIPE_DRAIN_MS = 500;

/** A bash command started as the bash tool starts it. */
export interface SpawnedBash {
  /** Leads its own process group (`killGroup(child.pid)` reaches all it started). */
  child: Deno.ChildProcess;
  /** True when it runs in the sandbox, whose PID namespace dies with it. */
  sandboxed: boolean;
  /** Removes what the start left behind (a long command's script file), once it has ended. */
  release(): Promise<void>;
}

/**
 * Starts one command, with `env` (a session's variables from its hooks) set in its shell; throws
 * when it cannot be started.
 */
export type SpawnBash = (
  command: string,
  env?: Readonly<Record<string, string>>,
) => Promise<SpawnedBash>;

/**
 * How the bash tool starts a command, for every command that must run as it does (a background
 * job's too): `bash -c` in the workspace with stderr sent into stdout (`exec 2>&1`, on the
 * command's line 1 so bash's "line N" messages keep the user's numbering), stdin closed, the
 * environment rebuilt without secrets, in a session and process group of its own
 * (`spawnInOwnSession`: Ctrl-C in the terminal does not reach it, and killing the group reaches
 * everything it started). In the sandbox, bwrap runs straight over bash: the command's PID namespace dies with
 * it, and `--die-with-parent` kills it with the agent. Unconfined, a supervisor bash started by
 * `setpriv --pdeathsig` kills the group when the agent dies (even by SIGKILL); the death signal
 * is not inherited by forked children, so putting it on the command's own bash would leave its
 * children behind, and it follows the thread that spawned the child (Deno spawns on the main JS
 * thread). A command too long for one argument (Linux caps one at 128 KiB) goes in a script
 * file, which the sandbox makes readable at the same path (its private /tmp would hide it).
 */
export function bashLauncher(deps: BashToolDeps): SpawnBash {
  let pdeathsig: Promise<boolean> | undefined = deps.usePdeathsig === undefined
    ? undefined
    : Promise.resolve(deps.usePdeathsig);
  return async (command, env = {}) => {
    const sandbox = await deps.sandbox;
    // The session's variables are exported by the command's own shell from its arguments, taken
    // literally (no shell reads them as code): the programs that start it (setsid, bwrap,
    // setpriv) are found and run with rein's environment, so a PATH a hook set cannot put
    // another bwrap in the sandbox's place.
    const assignments = Object.entries(env).map(([name, value]) => `${name}=${value}`);
    const exports = assignments.length === 0 ? "" : 'export -- "$@"; set --; ';
    const script = `exec 2>&1; ${exports}${command}`;
    let file: string | undefined;
    let bashArgs = ["-c", script, ...(assignments.length === 0 ? [] : ["bash", ...assignments])];
    if (command.length > ARGUMENT_MAX) {
      file = await Deno.makeTempFile({ prefix: "rein-bash-", suffix: ".sh" });
      await Deno.writeTextFile(file, script);
      bashArgs = [file, ...assignments];
    }
    const release = async () => {
      if (file !== undefined) await Deno.remove(file).catch(() => {});
      await sandbox?.afterCall?.();
    };
    try {
      let program: string;
      let args: string[];
      if (sandbox) {
        [program = "bwrap", ...args] = sandbox.argv(bashArgs, file === undefined ? [] : [file]);
      } else if (await (pdeathsig ??= setprivWorks())) {
        program = "setpriv";
        args = ["--pdeathsig", "SIGTERM", "--", "bash", "-c", SUPERVISOR, "rein-bash", ...bashArgs];
      } else {
        program = "bash";
        args = bashArgs;
      }
      const child = spawnInOwnSession(program, {
        args,
        cwd: deps.workspace,
        clearEnv: true,
        env: commandEnv(Deno.env.toObject()),
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      });
      return { child, sandboxed: sandbox !== undefined, release };
    } catch (error) {
      await release();
      throw error;
    }
  };
}

/**
 * Waits for a command's pipes to be read to their end; a process that escaped its group (setsid)
 * may hold them open, so after a moment they are cancelled and what was read is kept.
 */
export async function drainPipes(
  pumps: Promise<unknown>,
  readers: readonly ReadableStreamDefaultReader<Uint8Array>[],
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), PIPE_DRAIN_MS);
  });
  if (await Promise.race([pumps, late]) === "late") {
    await Promise.all(readers.map((reader) => reader.cancel().catch(() => {})));
    await pumps;
  }
  clearTimeout(timer);
}

async function setprivWorks(): Promise<boolean> {
  try {
    const { success } = await new Deno.Command("setpriv", {
      args: ["--pdeathsig", "SIGKILL", "--", "true"],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false;
  }
}
