import type { EventStore } from "../../events/store.ts";
import type { AgentLoop } from "../loop/agent_loop.ts";
import type { RunOptions, TurnResult } from "../loop/run_turn.ts";
import type { Awaited, Wake, WakeLive, WakeSource } from "../loop/wake_source.ts";
import type { Mechanism } from "../mechanism.ts";
import type { State } from "../state/state.ts";

/** What waiting for wake-ups reads: the log, the state it folds into, the mechanisms. */
export interface WakeHost {
  store: EventStore;
  state: State;
  mechanisms: readonly Mechanism[];
}

/** Whose wake-ups: a session's agent. */
export interface WakeScope {
  session: string;
  agent: string;
}

/** The wake sources of `mechanisms`, in their order. */
export function wakeSourcesOf(mechanisms: readonly Mechanism[]): WakeSource[] {
  return mechanisms.flatMap((m) => (m.wake ? [m.wake] : []));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * What would wake `scope`'s idle agent now, from every source, oldest first (by seq, then source
 * and key). Pure over the state.
 */
export function pendingWakes(
  sources: readonly WakeSource[],
  state: State,
  scope: WakeScope,
): Wake[] {
  const pool = { ...scope, state };
  return sources.flatMap((source) => source.pending(pool)).sort((a, b) =>
    a.seq - b.seq || compare(a.source, b.source) || compare(a.key, b.key)
  );
}

/**
 * Resolves with what `check` finds, asked now and after each event this process folds (once the
 * state has it): a job's end appended by this process's watcher, a firing by its cron ticker.
 * It only listens: it never reads the log or takes its lock itself (aborted waits for the log
 * made two daemons on one workspace miss firings). Rejects with `signal.reason` when `signal`
 * aborts first.
 */
export function untilFolded<T>(
  host: Pick<WakeHost, "store">,
  check: () => T | undefined,
  signal: AbortSignal,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let stopped = false;
    const stop = () => {
      stopped = true;
      unsubscribe();
      signal.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      stop();
      reject(signal.reason);
    };
    const look = () => {
      if (stopped) return;
      const found = check();
      if (found === undefined) return;
      stop();
      resolve(found);
    };
    // Listeners run as the event is delivered: looked at once it is folded.
    const unsubscribe = host.store.subscribe(() => queueMicrotask(look));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    look();
  });
}

/**
 * The oldest wake of `scope`'s agent that `accept` takes: at once when one is waiting, else
 * once an event this process folds brings one (see {@link untilFolded}). Rejects with
 * `signal.reason` when `signal` aborts.
 */
export function waitForWake(
  host: WakeHost,
  scope: WakeScope,
  signal: AbortSignal,
  accept: (wake: Wake) => boolean = () => true,
): Promise<Wake> {
  const sources = wakeSourcesOf(host.mechanisms);
  return untilFolded(
    host,
    () => pendingWakes(sources, host.state, scope).find(accept),
    signal,
  );
}

/** What the sources say will wake `scope`'s agent later and was started after `afterSeq`. Pure. */
export function awaitedWakes(host: WakeHost, scope: WakeScope, afterSeq: number): Awaited[] {
  const pool = { ...scope, state: host.state };
  return wakeSourcesOf(host.mechanisms).flatMap((source) => source.awaited?.(pool, afterSeq) ?? []);
}

/**
 * One line on what a run waits for, as `rein -p` says it on stderr: `Waiting for background job
 * b1a2b3c4d (npm test)…`, several of a kind in one list (`background jobs a (x), b (y)`). Pure.
 */
export function waitingLine(awaited: readonly Awaited[]): string {
  const kinds = [...new Set(awaited.map((item) => item.kind))];
  const parts = kinds.map((kind) => {
    const labels = awaited.filter((item) => item.kind === kind).map((item) => item.label);
    return `${kind}${labels.length === 1 ? "" : "s"} ${labels.join(", ")}`;
  });
  return `Waiting for ${parts.join("; ")}…`;
}

/**
 * What woke the agent, for a person: a prompt's text, or `jobs b1a2b3c4d` for each wake that
 * `wake`'s turn takes up with it (its arrivals: every such wake pending now, oldest first). Pure.
 */
export function wokenBy(host: WakeHost, scope: WakeScope, wake: Wake): string {
  if (wake.prompt !== undefined) return wake.prompt;
  const taken = pendingWakes(wakeSourcesOf(host.mechanisms), host.state, scope)
    .filter((pending) => pending.prompt === undefined);
  const named = taken.some((pending) => pending.source === wake.source && pending.key === wake.key)
    ? taken
    : [wake, ...taken];
  return named.map((pending) => `${pending.source} ${pending.key}`).join(", ");
}

/** Start the live side of every source (cron's clock); returns how to stop them all. */
export function startWakeSources(
  host: WakeHost,
  live: Omit<WakeLive, "store" | "state">,
): { stop(): void } {
  const started = wakeSourcesOf(host.mechanisms).flatMap((source) =>
    source.live ? [source.live({ ...live, store: host.store, state: host.state })] : []
  );
  return { stop: () => started.forEach((one) => one.stop()) };
}

/**
 * Run the turn `wake` starts for `loop`'s idle agent: a prompt of its own (a cron firing), or a
 * turn on the agent's arrivals (a job's `<task-notification>`; null when nothing waits any more).
 */
export function runWake(
  loop: AgentLoop,
  wake: Wake,
  options: RunOptions,
): Promise<TurnResult | null> {
  return wake.prompt !== undefined ? loop.prompt(wake.prompt, options) : loop.wake(options);
}
