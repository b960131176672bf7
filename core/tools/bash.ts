import { pumpText } from "./pump_text.ts";
import type { z } from "zod";
import { baseInputSchema } from "./_base_input_schema.ts";
import { CappedOutput } from "./_capped_output.ts";
import { killGroup } from "./kill_group.ts";
import { bashLauncher, drainPipes, type SpawnedBash } from "./bash_launcher.ts";
import { errorMessage, formatNumber } from "./_format.ts";
import { lazySchema } from "./schema.ts";
import type { Tool, ToolCallContext, ToolResult, Zod } from "./tool.ts";
import type { BashToolDeps } from "./bash_sandbox.ts";
import { sessionEnvOf } from "./session_env.ts";

/** Default and maximum command timeouts, in milliseconds. */
export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;
const OUTPUT_MAX_CHARS = 30_000;

/**
 * The input's zod schema, built on the tool's first call: zod is not loaded at start-up. A bash
 * with more fields (a background job's flag) builds on it.
 */
export function bashInputSchema(z: Zod) {
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
export type BashInput = z.infer<ReturnType<typeof bashInputSchema>>;

export type { BashSandbox, BashToolDeps } from "./bash_sandbox.ts";

/** What the model is told about bash. */
export const BASH_DESCRIPTION = `Runs a bash command in the workspace and returns its output.

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
  const spawn = bashLauncher(deps);
  return {
    name: "bash",
    // The sandbox is described in the system prompt from the session's record (see
    // core/permissions), so a replay without bwrap sends the same tool definitions.
    description: BASH_DESCRIPTION,
    schema: lazySchema(bashInputSchema),
    inputSchema: baseInputSchema("bash"),
    kind: "effect",
    readOnly: false,
    claudeNames: ["Bash"],
    commandField: "command",
    permission: "execute",
    summarize: (input) => summarizeCommand(input.command),
    async run(input, context) {
      if (context.signal.aborted) {
        return { content: "Command cancelled before it started", isError: true, cancelled: true };
      }
      let spawned: SpawnedBash;
      try {
        // The session's variables from its hooks (a caller without a view has none).
        const env = typeof context.view === "function"
          ? sessionEnvOf(context.view(), context.session)
          : {};
        spawned = await spawn(input.command, env);
      } catch (error) {
        return { content: `Cannot start bash: ${errorMessage(error)}`, isError: true };
      }
      try {
        return await runCommand(spawned, input, context);
      } finally {
        await spawned.release();
      }
    },
  };
}

type Ending = "exited" | "timed out" | "cancelled";

async function runCommand(
  { child, sandboxed }: SpawnedBash,
  input: BashInput,
  context: ToolCallContext,
): Promise<ToolResult> {
  const timeoutMs = input.timeout ?? BASH_DEFAULT_TIMEOUT_MS;
  const stdout = new CappedOutput(OUTPUT_MAX_CHARS);
  const stderr = new CappedOutput(OUTPUT_MAX_CHARS);
  const outReader = child.stdout.getReader();
  const errReader = child.stderr.getReader();
  const pumps = Promise.all([pumpText(outReader, stdout), pumpText(errReader, stderr)]);

  const run: { ending: Ending } = { ending: "exited" };
  const kills: Promise<boolean>[] = [];
  const stop = (why: Ending) => {
    run.ending = why;
    kills.push(killGroup(child.pid));
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
  // In a sandbox the call's processes died with its PID namespace: the kernel kills every one
  // of them when the namespace's first process (bwrap's) exits, before bwrap's status comes, so
  // there is nothing to kill (and starting a program to try costs the turn milliseconds).
  // Unconfined, the kill and the draining of the pipes (which a process left behind may hold)
  // run at once.
  const [leftBehind] = await Promise.all([
    ending === "exited" && !sandboxed ? killGroup(child.pid) : false,
    drainPipes(pumps, [outReader, errReader]),
    ...kills,
  ]);

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
export function signalOfExitCode(code: number): string | undefined {
  return code > 128 ? SIGNALS[code - 128] : undefined;
}

/** The command's first line, shortened to 80 characters. Pure. */
export function summarizeCommand(command: string): string {
  const lines = command.trim().split("\n");
  const first = lines[0] ?? "";
  const more = lines.length > 1 ? " …" : "";
  return first.length > 80 ? `${first.slice(0, 79)}…` : first + more;
}
