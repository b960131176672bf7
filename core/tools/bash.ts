import { pumpText } from "./pump_text.ts";
import type { z } from "zod";
import { baseInputSchema } from "./_base_input_schema.ts";
import { CappedOutput } from "./_capped_output.ts";
import { killGroup } from "./kill_group.ts";
import { commandEnv } from "./command_env.ts";
import { errorMessage, formatNumber } from "./_format.ts";
import { lazySchema } from "./schema.ts";
import type { Tool, ToolCallContext, ToolResult, Zod } from "./tool.ts";

/** Default and maximum command timeouts, in milliseconds. */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
const OUTPUT_MAX_CHARS = 30_000;
/** How long to keep reading after the command ends, for pipes held by escaped processes. */
const PIPE_DRAIN_MS = 500;

/** The input's zod schema, built on the tool's first call: zod is not loaded at start-up. */
function inputSchema(z: Zod) {
  return z.strictObject({
    command: z.string().min(1).describe("The bash command to run"),
    timeout: z.number().int().min(1).max(BASH_MAX_TIMEOUT_MS).optional().describe(
      `Timeout in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS}, max ${BASH_MAX_TIMEOUT_MS})`,
    ),
    description: z.string().optional().describe(
      'What the command does in 5-10 words, shown to the user, e.g. "Run the unit tests"',
    ),
  });
}

/** Input of the bash tool. */
export type BashInput = z.infer<ReturnType<typeof inputSchema>>;

/**
 * Runs `bash "$@"` as a child and exits with its status; on SIGTERM (sent by the kernel when
 * the agent dies, via setpriv's parent-death signal) kills its own process group.
 */
const SUPERVISOR = `trap 'kill -KILL -- -$$' TERM; bash "$@" & wait $!`;

/** The longest command passed to bash as an argument; longer ones go in a script file. */
const ARGUMENT_MAX = 64 * 1024;

/**
 * An OS sandbox for bash (core/sandbox builds one on bwrap). Each call gets a sandbox of its own
 * whose end, or the agent's death, kills every process the call started, so a sandboxed call
 * needs no supervisor of its own.
 */
export interface BashSandbox {
  /** What commands may and may not do in it, as a line of the tool's description. */
  description: string;
  /**
   * The command line, program first, that runs `bash` with `bashArgs` in the sandbox, starting
   * in the workspace, with the host files `readable` readable at their own paths. Pure.
   */
  argv(bashArgs: readonly string[], readable: readonly string[]): string[];
}

/** What the bash tool needs from its surroundings. */
export interface BashToolDeps {
  /** Directory every command starts in. */
  workspace: string;
  /**
   * The sandbox commands run in; without one they run unconfined (secrets still removed). A
   * promise lets rein start while the sandbox is probed: the first call waits for it.
   */
  sandbox?: BashSandbox | PromiseLike<BashSandbox | undefined>;
  /**
   * Whether to start unconfined bash under a `setpriv --pdeathsig` supervisor. Detected once, on
   * first unconfined use, when omitted.
   */
  usePdeathsig?: boolean;
}

const description = `Runs a bash command in the workspace and returns its output.

- Each call starts a fresh \`bash -c\` in the workspace root: cd, variables and shell state do not carry over between calls. Use paths relative to the workspace root, and quote paths that contain spaces.
- stdin is closed, so interactive commands (editors, prompts, \`git rebase -i\`, pagers waiting for input) cannot work; pass flags such as \`--yes\` or \`--no-edit\` instead.
- stdout and stderr are returned together, interleaved as they were written. Output beyond ${
  formatNumber(OUTPUT_MAX_CHARS)
} characters is cut in the middle, keeping the beginning and the end; filter long output yourself (grep, head, tail) when you need a particular part.
- A non-zero exit status is reported as "Exit code: N" and counts as a failure.
- The timeout defaults to ${BASH_DEFAULT_TIMEOUT_MS / 1000} s and can be raised up to ${
  BASH_MAX_TIMEOUT_MS / 1000
} s with \`timeout\`; on timeout or cancellation the command and every process it started are killed.
- Processes the command leaves running in the background (\`&\`) are killed when it finishes, so do not start servers or watchers expecting them to keep running.
- Prefer the dedicated tools over shell equivalents: read_file instead of cat/head/tail, edit_file instead of sed/awk, write_file instead of echo redirection, glob instead of find/ls for finding files, grep instead of grep/rg for searching contents. Use bash for building, testing, git, package managers and other programs.
- Chain dependent steps with \`&&\`; several independent commands can go in one call separated by \`;\`.`;

/** Creates the tool that runs shell commands in the workspace, killing their process group on timeout or cancellation. */
export function createBashTool(deps: BashToolDeps): Tool<BashInput> {
  let pdeathsig: Promise<boolean> | undefined = deps.usePdeathsig === undefined
    ? undefined
    : Promise.resolve(deps.usePdeathsig);
  return {
    name: "bash",
    // The sandbox is described in the system prompt from the session's record (see
    // core/permissions), so a replay without bwrap sends the same tool definitions.
    description,
    schema: lazySchema(inputSchema),
    inputSchema: baseInputSchema("bash"),
    kind: "effect",
    readOnly: false,
    summarize: (input) => summarizeCommand(input.command),
    async run(input, context) {
      const sandbox = await deps.sandbox;
      const launch = (bashArgs: string[], readable: string[]): Promise<Launch> => {
        if (sandbox) return Promise.resolve(sandboxed(sandbox, bashArgs, readable));
        pdeathsig ??= setprivWorks();
        return supervised(pdeathsig, bashArgs);
      };
      // `exec 2>&1` sends stderr into the stdout pipe, so the two stay interleaved exactly as
      // written. It shares line 1 with the command so bash's "line N" error messages keep the
      // user's numbering. Only what bash prints before it runs (a syntax error on line 1) reaches
      // the stderr pipe, and that is appended after stdout.
      const script = `exec 2>&1; ${input.command}`;
      // A command too long for one argument (Linux caps one at 128 KiB) goes in a script file,
      // which a sandbox makes readable at the same path (its private /tmp would hide it).
      if (input.command.length <= ARGUMENT_MAX) {
        return await runCommand(deps.workspace, input, context, launch(["-c", script], []));
      }
      const file = await Deno.makeTempFile({ prefix: "rein-bash-", suffix: ".sh" });
      try {
        await Deno.writeTextFile(file, script);
        return await runCommand(deps.workspace, input, context, launch([file], [file]));
      } finally {
        await Deno.remove(file).catch(() => {});
      }
    },
  };
}

type Ending = "exited" | "timed out" | "cancelled";

/** How to start one call: the program, its arguments, and whether it runs in a sandbox. */
interface Launch {
  program: string;
  args: string[];
  sandboxed: boolean;
}

/**
 * bwrap (or whatever the sandbox runs) straight over bash: the sandbox's PID namespace dies with
 * the call, and bwrap's `--die-with-parent` kills it with the agent.
 */
function sandboxed(sandbox: BashSandbox, bashArgs: string[], readable: string[]): Launch {
  const [program = "bwrap", ...args] = sandbox.argv(bashArgs, readable);
  return { program, args, sandboxed: true };
}

/**
 * Unconfined bash. With setpriv, a supervisor bash gets SIGTERM when the agent process dies (even
 * by SIGKILL) and its trap SIGKILLs its whole process group, so nothing the command started runs
 * on orphaned. (The death signal itself is not inherited by forked children, so putting it on
 * the command's own bash would leave its children behind.) The supervisor leads the group
 * (detached: true), runs the command as a child and exits with its status. The death signal
 * follows the thread that spawned the child; Deno spawns on the main JS thread.
 */
async function supervised(pdeathsig: Promise<boolean>, bashArgs: string[]): Promise<Launch> {
  if (!(await pdeathsig)) return { program: "bash", args: bashArgs, sandboxed: false };
  const args = ["--pdeathsig", "SIGTERM", "--", "bash", "-c", SUPERVISOR, "rein-bash"];
  return { program: "setpriv", args: [...args, ...bashArgs], sandboxed: false };
}

async function runCommand(
  workspace: string,
  input: BashInput,
  context: ToolCallContext,
  launching: Promise<Launch>,
): Promise<ToolResult> {
  if (context.signal.aborted) {
    return { content: "Command cancelled before it started", isError: true, cancelled: true };
  }
  const timeoutMs = input.timeout ?? BASH_DEFAULT_TIMEOUT_MS;
  const launch = await launching;

  let child: Deno.ChildProcess;
  try {
    // detached: true makes the child call setsid(), so it leads its own process group and
    // killGroup reaches everything it starts; Ctrl-C in the terminal does not reach it either.
    // The environment is rebuilt without secrets, so the API key never reaches a command.
    child = new Deno.Command(launch.program, {
      args: launch.args,
      cwd: workspace,
      clearEnv: true,
      env: commandEnv(Deno.env.toObject()),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
  } catch (error) {
    return { content: `Cannot start bash: ${errorMessage(error)}`, isError: true };
  }

  const stdout = new CappedOutput(OUTPUT_MAX_CHARS);
  const stderr = new CappedOutput(OUTPUT_MAX_CHARS);
  const outReader = child.stdout.getReader();
  const errReader = child.stderr.getReader();
  const pumps = Promise.all([pumpText(outReader, stdout), pumpText(errReader, stderr)]);

  const run: { ending: Ending } = { ending: "exited" };
  const stop = (why: Ending) => {
    run.ending = why;
    killGroup(child.pid);
  };
  const timer = setTimeout(() => stop("timed out"), timeoutMs);
  const onAbort = () => stop("cancelled");
  context.signal.addEventListener("abort", onAbort, { once: true });
  // The signal may have aborted while we awaited the setpriv probe or spawned: no event comes.
  if (context.signal.aborted) onAbort();
  let status: Deno.CommandStatus;
  try {
    status = await child.status;
  } finally {
    clearTimeout(timer);
    context.signal.removeEventListener("abort", onAbort);
  }
  const { ending } = run;
  // In a sandbox the call's processes die with its PID namespace, which outlives bwrap by a
  // moment: killing the group still speeds that up, but cannot tell whether anything was left.
  const leftBehind = ending === "exited" && killGroup(child.pid) && !launch.sandboxed;
  await drain(pumps, [outReader, errReader]);

  const output = (stdout.render() + stderr.render()).trimEnd();
  const notes = [output === "" ? "(No output)" : output];
  if (ending === "timed out") notes.push(`Command timed out after ${timeoutMs / 1000}s`);
  else if (ending === "cancelled") notes.push("Command cancelled");
  else if (status.code !== 0) {
    const signal = status.signal ?? signalOfExitCode(status.code);
    notes.push(`Exit code: ${status.code}${signal ? ` (killed by ${signal})` : ""}`);
  }
  if (leftBehind) {
    notes.push("Background processes still running when the command ended were killed");
  }
  return {
    content: notes.join("\n\n"),
    isError: ending !== "exited" || status.code !== 0,
    ...(ending === "cancelled" ? { cancelled: true } : {}),
  };
}

/** Common signals by number, to name them from a shell's 128+N exit status. */
const SIGNALS: Record<number, string> = {
  1: "SIGHUP",
  2: "SIGINT",
  3: "SIGQUIT",
  6: "SIGABRT",
  9: "SIGKILL",
  11: "SIGSEGV",
  13: "SIGPIPE",
  14: "SIGALRM",
  15: "SIGTERM",
};

/** The signal a shell reports as exit status 128+N (the supervisor passes statuses on so). */
function signalOfExitCode(code: number): string | undefined {
  return code > 128 ? SIGNALS[code - 128] : undefined;
}

/** Waits for the pipes to close; a process that escaped the group (setsid) may hold them open. */
async function drain(
  pumps: Promise<unknown>,
  readers: ReadableStreamDefaultReader<Uint8Array>[],
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

/** The command's first line, shortened to 80 characters. Pure. */
function summarizeCommand(command: string): string {
  const lines = command.trim().split("\n");
  const first = lines[0] ?? "";
  const more = lines.length > 1 ? " …" : "";
  return first.length > 80 ? `${first.slice(0, 79)}…` : first + more;
}
