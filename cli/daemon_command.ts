import { CronScheduler } from "../core/cron/cron_scheduler.ts";
import { CronTicker } from "../core/cron/cron_ticker.ts";
import { waitForArrivals } from "../core/runner/wake.ts";
import { CRON_SOURCE } from "../core/cron/cron_projection.ts";
import { scheduledText } from "../core/cron/scheduled_text.ts";
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
  maxTurns?: number | undefined;
}

/** The signals the daemon stops on (injectable for tests of the command in-process). */
export interface DaemonSignals {
  add(listener: () => void): void;
  remove(listener: () => void): void;
}

const PROCESS_SIGNALS: DaemonSignals = {
  add(listener) {
    Deno.addSignalListener("SIGTERM", listener);
    Deno.addSignalListener("SIGINT", listener);
  },
  remove(listener) {
    Deno.removeSignalListener("SIGTERM", listener);
    Deno.removeSignalListener("SIGINT", listener);
  },
};

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
  signals: DaemonSignals = PROCESS_SIGNALS,
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
  signals: DaemonSignals,
): Promise<number> {
  const runner = new Runner();
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
  const ticker = new CronTicker(
    new CronScheduler({
      store: runtime.harness.store,
      state: runtime.harness.state,
      clock: runtime.clock,
      session: () => ({ session: session.id, agent: session.agent }),
    }),
    {
      everyMs: runtime.cronTickMs,
      onError: (error) => {
        if (failed) return;
        failed = true;
        const detail = error instanceof Error ? error.message : String(error);
        io.stderr.write(`rein daemon: cannot check the cron jobs: ${detail}\n`);
      },
    },
  );
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
    ticker.start();
    while (!stopping.signal.aborted) {
      // Background jobs started by a scheduled turn are watched by this process's job manager:
      // their ends are appended as they come, shown by the renderer, and wake the idle agent
      // for a turn on them, beside the wait for a firing.
      const idle = new AbortController();
      const stopIdle = () => idle.abort();
      stopping.signal.addEventListener("abort", stopIdle, { once: true });
      const scope = { session: session.id, agent: session.agent };
      const next = await Promise.race([
        ticker.waitForFiring(idle.signal).then((firing) => ({ firing }), () => undefined),
        // A wait that fails (a catch-up that could not read the log) leaves the firings to
        // the ticker: only stopping ends the daemon.
        waitForArrivals(runtime.harness.deps, scope, idle.signal, [CRON_SOURCE]).then(
          (arrivals) => ({ arrivals }),
          () => new Promise<never>(() => {}),
        ),
      ]);
      idle.abort();
      stopping.signal.removeEventListener("abort", stopIdle);
      if (next === undefined || stopping.signal.aborted) break;
      if ("arrivals" in next) {
        const what = next.arrivals.map((arrival) => `${arrival.source} ${arrival.key}`);
        renderer.gap();
        renderer.line(`${runtime.clock().toISOString()} woken by ${what.join(", ")}`);
        const woken = await drive(({ signal }) => session.wake({ signal, maxTurns, onText }));
        if (woken !== null) report(renderer, what.join(", "), woken);
        continue;
      }
      const { firing } = next;
      const text = scheduledText(firing);
      renderer.gap();
      renderer.line(`${runtime.clock().toISOString()} ${text}`);
      const result = await drive(({ signal }) =>
        session.prompt(text, { signal, maxTurns, onText })
      );
      if (result !== null) report(renderer, `cron job ${firing.id}`, result);
    }
    await session.end("other", new AbortController().signal);
    return 0;
  } finally {
    ticker.stop();
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
