import { pumpText } from "../tools/pump_text.ts";
import { killGroup } from "../tools/kill_group.ts";
import { spawnInOwnSession } from "../tools/own_session_command.ts";
/** The timeout of a hook whose settings give none, as in Claude Code. */
export const HOOK_DEFAULT_TIMEOUT_MS = 60_000;
/** The most characters of stdout, and of stderr, kept from one run; the head is kept. */
export const HOOK_OUTPUT_MAX_CHARS = 64 * 1024;
/** How long to keep reading after the hook exits, for pipes held by processes it left behind. */
const PIPE_DRAIN_MS = 500;

/** How a hook run ended. */
export type HookRunEnding = "exited" | "timed_out" | "cancelled" | "failed_to_start";

/** What one run of a hook command did; plain JSON data. */
export interface HookRun {
  /** The exit status when the command exited by itself (`ending: "exited"`), else null. */
  exitCode: number | null;
  /** What it wrote, decoded as UTF-8, cut after {@linkcode HOOK_OUTPUT_MAX_CHARS} with a note. */
  stdout: string;
  /** Likewise; for `failed_to_start`, why it could not start. */
  stderr: string;
  durationMs: number;
  ending: HookRunEnding;
}

/** What {@linkcode runHookCommand} needs. */
export interface HookCommandOptions {
  /** Run as `bash -c command`. */
  command: string;
  /** Written to stdin as JSON, then stdin is closed. */
  input: unknown;
  cwd: string;
  /** The whole environment of the command (nothing is inherited), plus `CLAUDE_PROJECT_DIR`. */
  env: Record<string, string>;
  /** `CLAUDE_PROJECT_DIR`: the project root, for hooks that run the project's scripts. */
  projectDir: string;
  timeoutMs: number;
  /** Aborting kills the command. */
  signal?: AbortSignal;
  /**
   * The command line, program first, that runs bash with `bashArgs` (a sandbox's); absent:
   * bash itself.
   */
  argv?: (bashArgs: readonly string[]) => string[];
}

/**
 * Runs one hook command with `input` as JSON on stdin and collects what it wrote. Never throws.
 *
 * The command runs in its own process group; on timeout or abort the whole group is killed
 * with SIGKILL. When the command exits but processes it left behind still hold its stdout or
 * stderr open after a short grace, the group is killed too, so a hook cannot wedge rein (a
 * background process that redirected its output is left running). A command that does not
 * read its stdin is fine. A command that cannot be started (no such directory, no bash) ends
 * `failed_to_start` with the reason in `stderr`.
 */
export async function runHookCommand(options: HookCommandOptions): Promise<HookRun> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (options.signal?.aborted) {
    return { exitCode: null, stdout: "", stderr: "", durationMs: 0, ending: "cancelled" };
  }
  let child: Deno.ChildProcess;
  try {
    // In a session of its own, it leads a process group that killGroup reaches in full; Ctrl-C
    // in rein's terminal does not reach it either.
    const [program, ...args] = options.argv?.(["-c", options.command]) ??
      ["bash", "-c", options.command];
    child = spawnInOwnSession(program as string, {
      args,
      cwd: options.cwd,
      env: { ...options.env, CLAUDE_PROJECT_DIR: options.projectDir },
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      exitCode: null,
      stdout: "",
      stderr: `Cannot start hook command in "${options.cwd}": ${reason}`,
      durationMs: elapsed(),
      ending: "failed_to_start",
    };
  }

  const stdout = new HeadOfOutput(HOOK_OUTPUT_MAX_CHARS);
  const stderr = new HeadOfOutput(HOOK_OUTPUT_MAX_CHARS);
  const readers = [child.stdout.getReader(), child.stderr.getReader()] as const;
  const pumps = Promise.all([pumpText(readers[0], stdout), pumpText(readers[1], stderr)]);
  const written = writeInput(child.stdin, options.input);

  let ending: HookRunEnding = "exited";
  const kills: Promise<boolean>[] = [];
  const stop = (why: HookRunEnding) => {
    ending = why;
    kills.push(killGroup(child.pid));
  };
  const timer = setTimeout(() => stop("timed_out"), options.timeoutMs);
  const onAbort = () => stop("cancelled");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let status: Deno.CommandStatus;
  try {
    status = await child.status;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
  if (!(await closesWithin(pumps, PIPE_DRAIN_MS))) {
    kills.push(killGroup(child.pid));
    // A process that left the group (setsid) may still hold a pipe: stop reading it.
    if (!(await closesWithin(pumps, PIPE_DRAIN_MS))) {
      await Promise.all(readers.map((reader) => reader.cancel().catch(() => {})));
      await pumps;
    }
  }
  // Only a process that escaped the group can still hold stdin; the write then stays pending.
  await closesWithin(written, PIPE_DRAIN_MS);
  await Promise.all(kills);
  return {
    exitCode: ending === "exited" ? status.code : null,
    stdout: stdout.render(),
    stderr: stderr.render(),
    durationMs: elapsed(),
    ending,
  };
}

/** Keeps the first `maxChars` characters of streamed text and counts the rest. */
class HeadOfOutput {
  readonly #maxChars: number;
  #head = "";
  #cutChars = 0;

  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  append(text: string): void {
    const room = this.#maxChars - this.#head.length;
    if (room > 0) this.#head += text.slice(0, room);
    this.#cutChars += Math.max(0, text.length - Math.max(room, 0));
  }

  render(): string {
    if (this.#cutChars === 0) return this.#head;
    return `${this.#head}\n[… ${this.#cutChars} more characters cut: rein keeps the first ` +
      `${this.#maxChars} of a hook's output]`;
  }
}

/** Writes the input and closes stdin; a hook that exits without reading it breaks the pipe. */
async function writeInput(stdin: WritableStream<Uint8Array>, input: unknown): Promise<void> {
  const writer = stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(JSON.stringify(input)));
    await writer.close();
  } catch {
    await writer.abort().catch(() => {});
  }
}

/** Whether `work` settles within `ms`. */
async function closesWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
