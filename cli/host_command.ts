import type { NewEvent } from "../events/event_types.ts";
import { PROCESS_STOP_SIGNALS, type StopSignals } from "./stop_signals.ts";
import type { Lease } from "../events/store.ts";
import {
  HOST_AGENT,
  HOST_NAME,
  type HostPlan,
  hostSession,
  placedSessions,
  planHost,
  rosterOf,
} from "../core/team/mod.ts";
import type { Harness } from "../core/harness.ts";
import { personalCommands } from "../core/hooks/tool_event_hooks.ts";
import { recordedSettings } from "../core/settings/recorded_settings.ts";
import { inFocus } from "../core/state/state.ts";
import { wallClock } from "./clock.ts";
import type { CommandIo } from "./io.ts";
import { LEASE_MS_ENV, leaseMsOf } from "./lease_ms.ts";
import { defaultLogPath, resolveWorkspace, type RuntimeEnv } from "./paths.ts";
import { requireCredentials } from "./run_flags.ts";
import { openRuntime } from "./runtime.ts";
import { storeOf } from "./store_log.ts";
import { TeammateProcesses } from "./teammate_processes.ts";

/** Flags of `rein host`. */
export interface HostFlags {
  /** The shared log (`postgres://…`); else `REIN_STORE`. */
  store?: string | undefined;
  /** This machine's working copy, where its teammates work (default: where it was started). */
  workspace?: string | undefined;
  /** How leads name this host (default: the machine's hostname). */
  name?: string | undefined;
  /**
   * Run teammates of sessions whose settings carry a person's own hook commands (they run
   * unconfined here, as that person's): only where whoever writes to the database is trusted.
   */
  trustHooks?: boolean | undefined;
}

/**
 * `rein host --store postgres://… [--workspace DIR] [--name NAME]`: offer this machine to run
 * teammates that leads elsewhere place on it (`spawn_teammate {host: NAME}`), in its own working
 * copy, on a log that several machines share. It holds the lease `host:NAME` (so leads see it
 * live, and a second host of that name is refused), records `host.joined {name, folder, machine}`,
 * then reconciles (`planHost`) each time the log grows (NOTIFY, no polling) and each third of a
 * lease's life (a dead lead's lease lapses without an event): it starts each teammate placed on it
 * whose lead holds its lease and that is not stopped or crashed, as the lead's process starts its
 * own (`rein teammate` through the launcher, flags narrowed to this working copy, dying with this
 * process), supervises it the same way (restarts, crash), and stops the teammates stopped in the
 * log or whose lead is gone. A session whose settings carry a person's own hook commands is not
 * served unless `--trust-hooks` (they would run here unconfined). SIGTERM or Ctrl-C stops its teammates, records `host.left` and gives
 * the lease up. Returns the exit code.
 */
export async function hostCommand(
  flags: HostFlags,
  env: RuntimeEnv,
  io: CommandIo,
  signals: StopSignals = PROCESS_STOP_SIGNALS,
): Promise<number> {
  const store = storeOf(flags.store, env);
  if (store === undefined) {
    throw new Error(
      "Cannot host teammates on a log one machine has: give rein host the log several " +
        "machines share (--store postgres://…, or REIN_STORE)",
    );
  }
  const name = flags.name ?? defaultHostName();
  if (!HOST_NAME.test(name)) {
    throw new Error(
      `Cannot host as "${name}": a host's name is letters, digits, ".", "-" and "_", at most 64`,
    );
  }
  const workspace = resolveWorkspace(flags.workspace, env, Deno.cwd());
  // Its teammates ask the model with this machine's credentials.
  requireCredentials(env);
  const notice = (message: string) => io.stderr.write(`${message}\n`);
  const runtime = await openRuntime({
    workspace,
    logPath: defaultLogPath(workspace),
    store,
    env,
    onNotice: notice,
    interactive: false,
    // No spare teammate, no MCP servers of its own: it runs no agent itself.
    teammate: true,
  });
  let lease: Lease | undefined;
  let processes: TeammateProcesses | undefined;
  try {
    const { harness, leases } = runtime;
    if (leases?.holder === undefined) throw new Error("Cannot host teammates: no shared leases");
    const session = hostSession(name);
    const taken = await leases.lease(session, HOST_AGENT);
    if (!taken.held) {
      throw new Error(
        `Host "${name}" is running already${taken.holder ? ` (${taken.holder})` : ""}: ` +
          "give this one another --name",
      );
    }
    lease = taken.lease;
    processes = new TeammateProcesses({
      workspace,
      logPath: defaultLogPath(workspace),
      store,
      env: env.toObject(),
      cwd: Deno.cwd(),
      clock: wallClock(env),
      spare: false,
      placed: name,
    });
    processes.bind(harness, leases);
    await harness.store.append([
      hostEvent(session, {
        type: "host.joined",
        data: { name, folder: workspace, machine: runtime.machine },
      }),
    ]);
    notice(
      `rein host ${name}: running the teammates placed on it in ${workspace} (Ctrl-C to stop)`,
    );
    const holder = leases.holder.bind(leases);
    const checkMs = Math.max(100, Math.floor(leaseMsOf(env.get(LEASE_MS_ENV)) / 3));
    const place = { name, trustHooks: flags.trustHooks === true };
    await serve(harness, processes, place, holder, checkMs, signals, notice);
    await processes.stopAll();
    processes = undefined;
    await harness.store.append([
      hostEvent(session, { type: "host.left", data: { reason: "stopped" } }),
    ]);
    return 0;
  } finally {
    await processes?.stopAll();
    lease?.release();
    await runtime.close();
  }
}

/** This host: its name, and whether it runs sessions' personal hook commands (`--trust-hooks`). */
interface HostPlace {
  name: string;
  trustHooks: boolean;
}

/** Reconcile until a signal: on each append and every `checkMs` (for leases that lapse). */
async function serve(
  harness: Harness,
  processes: TeammateProcesses,
  place: HostPlace,
  holder: (session: string, agent: string) => Promise<string | undefined>,
  checkMs: number,
  signals: StopSignals,
  notice: (message: string) => void,
): Promise<void> {
  const stopping = new AbortController();
  const stop = () => stopping.abort();
  signals.add(stop);
  const refused = new Set<string>();
  const { name } = place;
  try {
    while (!stopping.signal.aborted) {
      const plan = await reconcile(harness, processes, place, holder).catch((error) => {
        notice(`rein host ${name}: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      });
      for (const { session, name: teammate, why } of plan?.refused ?? []) {
        const key = `${session}/${teammate}`;
        if (refused.has(key)) continue;
        refused.add(key);
        notice(`rein host ${name}: not running teammate "${teammate}" of ${session}: ${why}`);
      }
      await nextChange(harness, checkMs, stopping.signal);
    }
  } finally {
    signals.remove(stop);
  }
}

/** Make this host's processes match the log: start and stop what `planHost` says. */
async function reconcile(
  harness: Harness,
  processes: TeammateProcesses,
  { name, trustHooks }: HostPlace,
  holder: (session: string, agent: string) => Promise<string | undefined>,
): Promise<HostPlan> {
  await harness.store.catchUp();
  const roster = rosterOf(harness.state);
  const { catalog } = harness.state;
  const leads: Record<string, string> = {};
  for (const id of catalog.order) {
    const entry = catalog.byId[id];
    if (entry !== undefined) leads[id] = entry.mainAgent;
  }
  const liveLeads = new Set<string>();
  for (const session of placedSessions(roster, name)) {
    const lead = leads[session];
    if (lead !== undefined && await holder(session, lead) !== undefined) liveLeads.add(session);
  }
  const personalHooks = trustHooks ? undefined : await withPersonalHooks(harness, [...liveLeads]);
  const plan = planHost({
    roster,
    leads,
    host: name,
    running: processes.running(),
    liveLeads,
    ...(personalHooks === undefined ? {} : { personalHooks }),
  });
  await Promise.all(
    plan.stop.map(({ session, name: teammate }) => processes.stop(session, teammate)),
  );
  for (const { session, name: teammate, restart } of plan.start) {
    await processes.start(session, teammate, restart);
  }
  return plan;
}

/**
 * Which of `sessions` recorded (at their last start or resume) a person's own hook commands
 * (user or `--settings` scope, plugins) in their settings: those would run unconfined in a
 * teammate here, as that person's; and what the log says of a session's machine anyone who can
 * write to it can say. Folds each session in full first.
 */
async function withPersonalHooks(
  harness: Harness,
  sessions: readonly string[],
): Promise<Set<string>> {
  const missing = sessions.filter((id) => !inFocus(harness.focused, id));
  if (missing.length > 0) await harness.focus(missing);
  const found = new Set<string>();
  for (const id of sessions) {
    const settings = harness.state.sessions.byId[id]?.settings;
    if (settings === undefined || settings === null) continue;
    if (personalCommands(settings, recordedSettings(settings)).size > 0) found.add(id);
  }
  return found;
}

/** Wait for the log to grow, `checkMs` to pass, or `signal`, whichever comes first. */
async function nextChange(harness: Harness, checkMs: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  const waiting = new AbortController();
  const abort = () => waiting.abort();
  signal.addEventListener("abort", abort, { once: true });
  const timer = setTimeout(abort, checkMs);
  try {
    await harness.store.waitForAppend(harness.store.lastSeq, waiting.signal).catch(() => {});
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", abort);
  }
}

/** An event of the host (its session `host:NAME`, agent `host`). */
function hostEvent(session: string, event: Pick<NewEvent, "type" | "data">): NewEvent {
  return { ...event, session, agent: HOST_AGENT } as NewEvent;
}

/** The machine's hostname, or `host` where it cannot be read. */
function defaultHostName(): string {
  try {
    return Deno.hostname().split(".")[0] || "host";
  } catch {
    return "host";
  }
}
