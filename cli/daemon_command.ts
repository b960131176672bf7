import { runWake } from "../core/runner/wake.ts";
import { PROCESS_STOP_SIGNALS, type StopSignals } from "./stop_signals.ts";
import type { AgentLoop } from "../core/loop/agent_loop.ts";
import type { TurnResult } from "../core/loop/run_turn.ts";
import { type ActiveRun, Runner } from "../core/runner/runner.ts";
import type { Catalog } from "../core/state/catalog.ts";
import { type CommandIo, useColor } from "./io.ts";
import { chooseModel } from "./model_choice.ts";
import { Renderer } from "./render/render.ts";
import { createStyles } from "./render/style.ts";
import { defaultLogPath, resolveWorkspace, type RuntimeEnv, userPath } from "./paths.ts";
import { openRuntime, type Runtime } from "./runtime.ts";
import { permissionFlagsOf, type PermissionOptions, requireCredentials } from "./run_flags.ts";
import { claim, findSession, newSessionSetup, warnIfElsewhere } from "./session_choice.ts";
import type { SessionLease } from "./session_lease.ts";

/** The main agent of the sessions `rein daemon` starts: how the next daemon finds its session. */
export const DAEMON_AGENT = "daemon";

/** How long the running turn may go on after SIGTERM before it is cancelled. */
const GRACE_MS = 60_000;

/** Flags of `rein daemon`. */
export interface DaemonFlags extends PermissionOptions {
  workspace?: string | undefined;
  log?: string | undefined;
  model?: string | undefined;
  settings?: string | undefined;
  /** A session (id or prefix) to run instead of the daemon's latest. */
  resume?: string | undefined;
  /** Start a new session even when the workspace has a daemon session. */
  newSession?: boolean | undefined;
  /** `--trust`: apply the folder's own settings without it being trusted (cli/_trust.ts). */
  trust?: boolean | undefined;
  maxTurns?: number | undefined;
}

/**
 * `rein daemon`: run a workspace's due cron prompts headless until SIGTERM (or SIGINT). It runs
 * one session, the workspace's latest daemon session (continued, its unfinished turn first) or a
 * new one, and fires what is due there: durable jobs of any session and the session's own. Each
 * firing runs as a turn of its own (`[Scheduled] <prompt>`); one that comes during a turn joins
 * that turn's next request. What would ask for permission is denied, as with `-p`. On SIGTERM it
 * starts nothing new, lets the running turn finish (a second signal, or a minute, cancels it),
 * ends the session and exits 0. Returns the exit code.
 */
export async function daemonCommand(
  flags: DaemonFlags,
  env: RuntimeEnv,
  io: CommandIo,
  signals: StopSignals = PROCESS_STOP_SIGNALS,
): Promise<number> {
  const workspace = resolveWorkspace(flags.workspace, env, Deno.cwd());
  const logPath = flags.log ? userPath(flags.log, env, Deno.cwd()) : defaultLogPath(workspace);
  const permissionFlags = permissionFlagsOf(flags);
  if (flags.resume !== undefined && flags.newSession) {
    throw new Error("Use only one of --resume and --new-session");
  }
  requireCredentials(env);
  const runtime = await openRuntime({
    workspace,
    logPath,
    env,
    onNotice: (message) => io.stderr.write(`${message}\n`),
    settingsFile: flags.settings,
    permissionFlags,
    interactive: false,
    trust: flags.trust,
  });
  let lease: SessionLease | undefined;
  try {
    const opened = await openDaemonSession(runtime, flags, env);
    lease = opened.lease;
    return await runDaemon(runtime, opened, flags.maxTurns ?? null, io, signals);
  } finally {
    lease?.release();
    await runtime.close();
  }
}

/** The session a daemon runs, its lease, and whether it was reopened. */
interface DaemonSession {
  session: AgentLoop;
  lease: SessionLease;
  reopened: boolean;
}

/** The latest session a daemon ran in the log (by its last event), if any. Pure. */
export function latestDaemonSession(catalog: Catalog): string | undefined {
  let latest: { id: string; lastSeq: number } | undefined;
  for (const id of catalog.order) {
    const entry = catalog.byId[id];
    if (entry?.mainAgent !== DAEMON_AGENT) continue;
    if (!latest || entry.lastSeq > latest.lastSeq) latest = entry;
  }
  return latest?.id;
}

async function openDaemonSession(
  runtime: Runtime,
  flags: DaemonFlags,
  env: RuntimeEnv,
): Promise<DaemonSession> {
  const { harness } = runtime;
  const id = flags.resume !== undefined
    ? findSession(harness.state, flags.resume)
    : flags.newSession
    ? undefined
    : latestDaemonSession(harness.state.catalog);
  if (id !== undefined) {
    const lease = await claim(runtime, id);
    try {
      await harness.focus([id]);
      const session = harness.openSession(id);
      const recorded = session.view.workspace;
      if (recorded !== runtime.workspace) {
        throw new Error(
          `Session ${id} works in "${recorded}", not in "${runtime.workspace}": run rein ` +
            `daemon there, or pass --workspace "${recorded}"`,
        );
      }
      warnIfElsewhere(runtime, id);
      return { session, lease, reopened: true };
    } catch (error) {
      lease.release();
      throw error;
    }
  }
  const { model, maxTokens } = chooseModel({
    flag: flags.model,
    env: env.get("ANTHROPIC_MODEL"),
    setting: harness.settings?.model,
  });
  const setup = newSessionSetup(runtime, model, maxTokens, crypto.randomUUID());
  const lease = await claim(runtime, setup.id, DAEMON_AGENT);
  try {
    return { session: await harness.startSession(setup, DAEMON_AGENT), lease, reopened: false };
  } catch (error) {
    lease.release();
    throw error;
  }
}

async function runDaemon(
  runtime: Runtime,
  { session, reopened }: DaemonSession,
  maxTurns: number | null,
  io: CommandIo,
  signals: StopSignals,
): Promise<number> {
  const runner = new Runner(runtime.harness);
  const stopping = new AbortController();
  let active: ActiveRun | undefined;
  let grace: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    if (stopping.signal.aborted) return active?.cancel();
    stopping.abort();
    if (active === undefined) return;
    io.stderr.write("rein daemon: stopping after the running turn (signal again to cancel it)\n");
    grace = setTimeout(() => active?.cancel(), GRACE_MS);
  };
  const drive = async (work: Parameters<Runner["run"]>[1]): Promise<TurnResult | null> => {
    active = runner.run(session, work);
    try {
      return await active.done;
    } finally {
      active = undefined;
    }
  };
  let failed = false;
  let sources: { stop(): void } | undefined;
  // What the session does shows as in the REPL: calls, answers, background jobs ending.
  const renderer = new Renderer(
    io.stdout,
    createStyles(useColor(io.stdoutIsTerminal)),
    (name) => runtime.harness.findTool(name),
    { maxAttempts: runtime.maxAttempts },
  );
  const onText = (delta: string) => renderer.text(delta);
  const unsubscribe = runtime.harness.store.subscribe((event) => {
    if (event.session !== session.id || event.type === "user.prompted") return;
    if (event.agent === session.agent) renderer.event(event);
    else renderer.childEvent(event);
  });
  signals.add(stop);
  try {
    io.stdout.write(
      `rein daemon: session ${session.id} in ${runtime.workspace}: running scheduled prompts ` +
        "until SIGTERM\n",
    );
    if (reopened) {
      const resumed = await drive(({ signal }) =>
        session.resume("continue", undefined, {
          signal,
          maxTurns,
          onText,
          settings: runtime.settings,
          files: runtime.files,
        })
      );
      if (resumed !== null) report(renderer, "the unfinished turn", resumed);
    }
    sources = runner.startWakeSources({
      scope: () => ({ session: session.id, agent: session.agent }),
      tickMs: runtime.cronTickMs,
      onError: (error) => {
        if (failed) return;
        failed = true;
        const detail = error instanceof Error ? error.message : String(error);
        io.stderr.write(`rein daemon: cannot check the cron jobs: ${detail}\n`);
      },
    });
    while (!stopping.signal.aborted) {
      // What wakes the idle agent starts a turn: a cron firing (its prompt), or the end of a
      // background job a turn started (watched by this process's job manager, its end shown by
      // the renderer), whose notification the turn takes up.
      const wake = await runner.nextWake(session, stopping.signal).catch(() => undefined);
      if (wake === undefined || stopping.signal.aborted) break;
      const what = runner.wokenBy(session, wake);
      renderer.gap();
      renderer.line(`${runtime.clock().toISOString()} ${wake.prompt ?? `woken by ${what}`}`);
      const result = await drive(({ signal }) =>
        runWake(session, wake, { signal, maxTurns, onText })
      );
      const job = wake.prompt === undefined ? what : `cron job ${wake.key.split("@")[0]}`;
      if (result !== null) report(renderer, job, result);
    }
    await session.end("other", new AbortController().signal);
    return 0;
  } finally {
    sources?.stop();
    if (grace !== undefined) clearTimeout(grace);
    signals.remove(stop);
    unsubscribe();
  }
}

/** One line on how a scheduled run ended. */
function report(renderer: Renderer, what: string, result: TurnResult): void {
  const detail = result.message ? `: ${result.message}` : "";
  renderer.gap();
  const rounds = `${result.rounds} round${result.rounds === 1 ? "" : "s"}`;
  renderer.line(`(${what}: ${result.reason} after ${rounds}${detail})`);
}
