/**
 * The warm spare teammate process: a `rein teammate` started ahead of a spawn, which loads its
 * modules and then waits, doing nothing else, for the identity of the teammate it is to be. A
 * spawn that finds one whose Deno flags, folder and environment are exactly the teammate's takes
 * it instead of starting a process (cli/teammate_processes.ts); the teammate's first model request
 * then waits for its runtime to open, not for Deno to start and load rein.
 *
 * @module
 */

import { teamsSetting, type TeamsSettingsFile } from "../core/mail/teams_enabled.ts";

/**
 * Set (`stdin`) in the spare's environment only: it reads its session and agent from stdin (one
 * JSON line, {@link Assignment}) before anything else, and takes this variable out of its
 * environment first, so that what it runs does not see it.
 */
export const ASSIGNMENT_ENV = "REIN_TEAMMATE_ASSIGNMENT";

/**
 * How many spares a lead's process keeps, in the lead's environment: `0` (or `false`, `no`, `off`)
 * none, a number up to {@link MAX_SPARES} that many, `on` (`true`, `yes`) the default.
 */
export const SPARE_ENV = "REIN_TEAMMATE_SPARE";

/**
 * The session and agent a spare is started with on its command line, before it is assigned (its
 * flags are planned with these, and compared with the teammate's: see {@link Spare.fits}).
 */
export const SPARE_NAME = "spare";

/** What a spare is told to be: a teammate's session and name, as a cold spawn's argv has them. */
export interface Assignment {
  session: string;
  agent: string;
}

/**
 * Spares a lead's process keeps unless told otherwise: a lead that spawns a team spawns it in one
 * answer, most often of three ("spawn three teammates to…"), and each spawn of that burst takes
 * one; a fourth starts cold.
 */
export const DEFAULT_SPARES = 3;

/** The most spares a lead's process keeps, whatever it is told. */
export const MAX_SPARES = 8;

/** How many spares to keep, and what was wrong with what said so (kept then: the nearest). */
export interface SpareCount {
  count: number;
  problem?: string;
}

/** The `"teams": {"spare": …}` that counts, and the file that says it. */
export interface SpareSetting {
  spare: unknown;
  path: string;
}

/**
 * The `teams.spare` that counts among the settings `files` (highest precedence first): the
 * highest file's that sets it, whatever the other files' `teams` hold (merged settings keep one
 * file's whole `teams`: a repository's `{"enabled": true}` would hide the person's `spare`). A
 * repository's own files (project, local) count only in a `trusted` folder, as for
 * `teams.enabled` (`teamsSetting`). Undefined when none says. Pure.
 */
export function spareSetting(
  files: readonly TeamsSettingsFile[],
  trusted: boolean,
): SpareSetting | undefined {
  const said = teamsSetting(files, trusted, (teams) => "spare" in teams);
  return said && { spare: said.teams.spare, path: said.path };
}

/**
 * How many spares a lead with `env` and the settings' `setting` ({@link spareSetting}) keeps:
 * {@link SPARE_ENV} when set, else `"teams": {"spare": false | true | N}` in the settings, else
 * {@link DEFAULT_SPARES}. A value that is neither (or more than {@link MAX_SPARES}) is reported in
 * `problem`, and the default (or the most) kept. Pure.
 */
export function spareCount(
  env: Readonly<Record<string, string>>,
  setting: SpareSetting | undefined,
): SpareCount {
  const given = (env[SPARE_ENV] ?? "").trim();
  if (given !== "") return countOf(given, `${SPARE_ENV} "${given}"`, "on or off");
  if (setting !== undefined) {
    const { spare, path } = setting;
    // JSON says what it means: true, false or a number (not a string of one, nor a list).
    const named = `The setting "teams": {"spare": ${JSON.stringify(spare)}} in "${path}"`;
    const value = typeof spare === "boolean" || typeof spare === "number" ? spare : NaN;
    return countOf(value, named, "true or false");
  }
  return { count: DEFAULT_SPARES };
}

/**
 * What a value of {@link SPARE_ENV} or the setting says, `named` in its problem, which names the
 * `switches` it could have been instead of a number. Pure.
 */
function countOf(value: unknown, named: string, switches: string): SpareCount {
  if (value === false || /^(false|no|off)$/i.test(String(value))) return { count: 0 };
  if (value === true || /^(true|yes|on)$/i.test(String(value))) return { count: DEFAULT_SPARES };
  const text = String(value);
  const count = typeof value === "number" || /^\d+$/.test(text) ? Number(text) : NaN;
  if (Number.isInteger(count) && count >= 0 && count <= MAX_SPARES) return { count };
  if (Number.isInteger(count) && count > MAX_SPARES) {
    return {
      count: MAX_SPARES,
      problem: `${named} is more than ${MAX_SPARES}: ${MAX_SPARES} spares are kept`,
    };
  }
  return {
    count: DEFAULT_SPARES,
    problem:
      `${named} is not a number of spare teammate processes (0 to ${MAX_SPARES}), ${switches}: ${DEFAULT_SPARES} are kept`,
  };
}

/** The line the lead writes to its spare. Pure. */
export function assignmentLine(assignment: Assignment): string {
  return `${JSON.stringify({ session: assignment.session, agent: assignment.agent })}\n`;
}

/**
 * Read a spare's assignment from `input` (its stdin): one JSON line. Undefined when the input
 * ends first (the lead let it go, or died): the spare then exits having done nothing. Throws
 * on a line that is not an assignment.
 */
export async function readAssignment(
  input: ReadableStream<Uint8Array>,
): Promise<Assignment | undefined> {
  const decoder = new TextDecoder();
  let text = "";
  const reader = input.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (value !== undefined) text += decoder.decode(value, { stream: !done });
      const end = text.indexOf("\n");
      if (end >= 0) return parseAssignment(text.slice(0, end));
      if (done) return undefined;
    }
  } finally {
    reader.releaseLock();
  }
}

/** An assignment line's session and agent. Throws on anything else. Pure. */
export function parseAssignment(line: string): Assignment {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    value = undefined;
  }
  if (typeof value === "object" && value !== null) {
    const { session, agent } = value as Record<string, unknown>;
    if (
      typeof session === "string" && session !== "" && typeof agent === "string" &&
      /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(agent)
    ) {
      return { session, agent };
    }
  }
  throw new Error(`Not a teammate's assignment: "${line.slice(0, 200)}"`);
}

/**
 * How a process is started (cli/teammate_processes.ts's `startDeno`): a spare's with its stdin and
 * stdout pipes (`piped`), a teammate started cold with neither.
 */
export type StartProcess = (
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>>,
  pipes: "null" | "piped",
) => Deno.ChildProcess;

/**
 * What a spare writes on its stdout once it has loaded and warmed up (and waits): the one line
 * the lead reads of it. What it writes after, as the teammate it became, is read and dropped.
 */
export const READY_LINE = "ready\n";

/** A teammate's process as the lead's would start it cold: its Deno arguments, folder, env. */
export interface TeammateLaunch {
  /** Its permission flags (as recorded in `agent.started`). */
  flags: readonly string[];
  /** The whole `deno` command line, ending with {@link reinArgs}. */
  denoArgs: readonly string[];
  /** rein's own arguments: `teammate --session S --agent NAME …`. */
  reinArgs: readonly string[];
  cwd: string;
  env: Readonly<Record<string, string>>;
}

/**
 * One spare process: started with the launch a teammate named {@link SPARE_NAME} would get, its
 * stdin and stdout pipes only this object holds. Taken at most once.
 */
export class Spare {
  readonly child: Deno.ChildProcess;
  /**
   * Resolves true once it has said it is loaded and warm ({@link READY_LINE}), false when it has
   * ended, was taken or let go, or wrote anything else first. Never rejects.
   */
  readonly ready: Promise<boolean>;
  readonly #launch: TeammateLaunch;
  #exited = false;
  #taken = false;
  #warm = false;

  constructor(launch: TeammateLaunch, start: StartProcess) {
    this.#launch = launch;
    this.child = start(
      launch.denoArgs,
      launch.cwd,
      { ...launch.env, [ASSIGNMENT_ENV]: "stdin" },
      "piped",
    );
    this.child.status.then(() => this.#exited = true, () => this.#exited = true);
    this.ready = readyOf(this.child.stdout).then((ready) => this.#warm = ready && this.waiting);
  }

  /** Whether it has said it is warm and still waits. */
  get warm(): boolean {
    return this.#warm && this.waiting;
  }

  /** The folder it was started in. */
  get cwd(): string {
    return this.#launch.cwd;
  }

  /** Whether it is still waiting: not exited, not taken. */
  get waiting(): boolean {
    return !this.#exited && !this.#taken;
  }

  /**
   * Whether it would be the process `wanted` describes: the same flags, the same `deno`
   * arguments up to rein's own, rein's own the same but for the session's and agent's values,
   * the same folder and environment. Pure.
   */
  fits(wanted: TeammateLaunch): boolean {
    const have = this.#launch;
    const [before, after] = [prefix(have), prefix(wanted)];
    return before !== undefined && after !== undefined && sameList(before, after) &&
      sameList(have.flags, wanted.flags) &&
      sameList(identityFree(have.reinArgs), identityFree(wanted.reinArgs)) &&
      have.cwd === wanted.cwd &&
      sameEnv(have.env, wanted.env);
  }

  /**
   * Hand it its assignment and let go of the pipe (its end: it has nothing more to read).
   * Rejects when it cannot be written (the process has ended meanwhile).
   */
  async assign(assignment: Assignment): Promise<void> {
    this.#taken = true;
    const writer = this.child.stdin.getWriter();
    try {
      await writer.write(new TextEncoder().encode(assignmentLine(assignment)));
      await writer.close();
    } finally {
      writer.releaseLock();
    }
  }

  /**
   * Let it go: its pipe closed (it exits by itself, having done nothing), SIGTERM, and SIGKILL
   * after `graceMs`; resolves once it has exited.
   */
  async stop(graceMs: number): Promise<void> {
    this.#taken = true;
    await this.child.stdin.close().catch(() => {});
    try {
      this.child.kill("SIGTERM");
    } catch {
      // It has exited already.
    }
    const timer = setTimeout(() => {
      try {
        this.child.kill("SIGKILL");
      } catch {
        // It has exited already.
      }
    }, graceMs);
    await this.child.status.catch(() => {});
    clearTimeout(timer);
  }
}

/**
 * Whether `output` (a spare's stdout) starts with {@link READY_LINE}; all of it is read (and
 * dropped) until it ends, so that the process never blocks on a full pipe. Never rejects.
 */
function readyOf(output: ReadableStream<Uint8Array>): Promise<boolean> {
  const reader = output.getReader();
  return new Promise<boolean>((resolve) => {
    const want = new TextEncoder().encode(READY_LINE);
    let seen = 0;
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (let i = 0; i < value.length && seen < want.length; i++) {
            if (value[i] !== want[seen++]) seen = Infinity;
          }
          if (seen === want.length) resolve(true);
          if (seen === Infinity) resolve(false);
        }
      } catch {
        // Its pipe broke: it has ended.
      } finally {
        resolve(false);
        reader.releaseLock();
      }
    })();
  });
}

/** A launch's `deno` arguments before rein's own; undefined when they do not end with them. */
function prefix(launch: TeammateLaunch): readonly string[] | undefined {
  const at = launch.denoArgs.length - launch.reinArgs.length;
  return at >= 0 && sameList(launch.denoArgs.slice(at), launch.reinArgs)
    ? launch.denoArgs.slice(0, at)
    : undefined;
}

/** rein's arguments with the values of `--session` and `--agent` left out. */
function identityFree(args: readonly string[]): string[] {
  return args.map((arg, i) =>
    i > 0 && (args[i - 1] === "--session" || args[i - 1] === "--agent") ? "" : arg
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function sameEnv(
  a: Readonly<Record<string, string>>,
  b: Readonly<Record<string, string>>,
): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
