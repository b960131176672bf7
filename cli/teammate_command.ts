import type { AgentLoop } from "../core/loop/agent_loop.ts";
import { type ActiveRun, Runner } from "../core/runner/runner.ts";
import { runWake } from "../core/runner/wake.ts";
import type { Wake } from "../core/loop/wake_source.ts";
import { IDLE_TIMEOUT_ENV, idleTimeoutMs, idleWait } from "../core/autonomy/mod.ts";
import { rosterKey, rosterOf } from "../core/team/mod.ts";
import { relayAsker } from "../core/team_questions/mod.ts";
import type { State } from "../core/state/state.ts";
import type { CommandIo } from "./io.ts";
import { defaultLogPath, resolveWorkspace, type RuntimeEnv, userPath } from "./paths.ts";
import { openRuntime } from "./runtime.ts";
import { requireCredentials } from "./run_flags.ts";
import { claim } from "./session_choice.ts";
import { storeOf } from "./store_log.ts";
import { relaunchWhenMoved } from "./_teammate_relaunch.ts";
import type { SessionLease } from "./session_lease.ts";
import { ASSIGNMENT_ENV, readAssignment, READY_LINE } from "./teammate_spare.ts";

/** Flags of `rein teammate`. */
export interface TeammateFlags {
  session: string;
  agent: string;
  workspace?: string | undefined;
  log?: string | undefined;
  /** The lead's `--mcp-config` values and `--strict-mcp-config` (core/mcp). */
  mcpConfig?: readonly string[] | undefined;
  strictMcpConfig?: boolean | undefined;
  /** The lead's `--trust`. */
  trust?: boolean | undefined;
}

/**
 * `rein teammate --session S --agent NAME`: run teammate NAME of session S in this process, as
 * the lead's process starts it (see cli/teammate_processes.ts). It opens the session's log as
 * that agent (its own lease), runs its first turn from the prompt of its `agent.spawned` (or,
 * started again after a crash, continues its unfinished turn from the log: calls left open are
 * closed as interrupted, nothing runs twice), then idles, running a turn for each thing that
 * wakes it (mail), until SIGTERM or its `agent.stopped` is in the log. What would ask for
 * permission is asked of the person at the lead's REPL (core/team_questions' relay), or denied
 * when the lead is headless, as with `-p`. Returns the exit code.
 *
 * Started as one of the lead's warm spares ({@link ASSIGNMENT_ENV} set: cli/teammate_spare.ts),
 * it loads its modules and warms up, says so on stdout ({@link READY_LINE}), then waits for its
 * session and agent on stdin before anything else: it reads no settings, opens no log, asks no
 * model until then, and exits 0 when stdin ends first. Assigned, it is the teammate a cold start
 * with those flags would be.
 */
export async function teammateCommand(
  flags: TeammateFlags,
  env: RuntimeEnv,
  io: CommandIo,
): Promise<number> {
  // The model SDK is the largest thing its first request waits for: loaded while the runtime
  // opens (as cli/main.ts does for a plain agent run; the model client imports the same module).
  import("@anthropic-ai/sdk").catch(() => {});
  if (env.get(ASSIGNMENT_ENV) !== undefined) {
    // Out of the environment first: what the teammate runs does not see it.
    Deno.env.delete(ASSIGNMENT_ENV);
    // What any teammate's start pays, whoever it is to be: paid while it waits, and no further
    // once it is told (or let go).
    const told = new AbortController();
    const assigned = readAssignment(Deno.stdin.readable).finally(() => told.abort());
    // A line that is no assignment is reported once awaited below, not as unhandled meanwhile.
    assigned.catch(() => {});
    // Loaded by a spare only: a teammate started cold does not load what it would warm.
    const { warmUpSpare } = await import("./_spare_warm_up.ts");
    await warmUpSpare(told.signal);
    // Warm: the lead may start its next spare (cli/teammate_spare.ts reads this line).
    if (!told.signal.aborted) {
      await Deno.stdout.write(new TextEncoder().encode(READY_LINE)).catch(() => {});
    }
    const assignment = await assigned;
    if (assignment === undefined) return 0;
    flags = { ...flags, ...assignment };
  }
  const workspace = resolveWorkspace(flags.workspace, env, Deno.cwd());
  const logPath = flags.log ? userPath(flags.log, env, Deno.cwd()) : defaultLogPath(workspace);
  requireCredentials(env);
  // The lead's log in PostgreSQL, when it is there: given in the environment (REIN_STORE), then
  // taken out of this process's, so that what the teammate runs (its bash, hooks) does not see it:
  // the URL may hold the database's password.
  const store = storeOf(undefined, env);
  if (store !== undefined) Deno.env.delete("REIN_STORE");
  const runtime = await openRuntime({
    workspace,
    logPath,
    ...(store === undefined ? {} : { store }),
    env,
    onNotice: (message) => io.stderr.write(`${message}\n`),
    interactive: false,
    teammate: true,
    mcpConfig: flags.mcpConfig ?? [],
    strictMcpConfig: flags.strictMcpConfig === true,
    trust: flags.trust === true,
  });
  let lease: SessionLease | undefined;
  try {
    const { harness } = runtime;
    lease = await claim(runtime, flags.session, flags.agent);
    await harness.focus([flags.session]);
    const loop = harness.openSession(flags.session, flags.agent);
    const teammate = loop.conversation.spawn?.teammate;
    if (teammate === undefined) {
      io.stderr.write(`rein: No teammate "${flags.agent}" in session ${flags.session}\n`);
      return 1;
    }
    const state = () => harness.state;
    // Moved to another folder (a worktree), it is started again with flags for it.
    relaunchWhenMoved(harness, flags.session, flags.agent, workspace);
    // What needs a person's permission is asked of the person at the lead's REPL (relayed
    // through the log); a headless lead's session denies it before asking.
    runtime.asker.current = relayAsker({ store: harness.store, state });
    // Idle this long with nothing to do, it stops itself (core/autonomy's idle timeout).
    const idleMs = idleTimeoutMs(env.get(IDLE_TIMEOUT_ENV), harness.settings?.other.idleTimeout);
    return await runTeammate(
      new Runner(harness),
      state,
      loop,
      teammate.prompt,
      runtime.cronTickMs,
      io,
      (next, signal) =>
        idleWait(harness, { session: loop.id, agent: loop.agent }, next, idleMs, signal),
    );
  } finally {
    lease?.release();
    await runtime.close();
  }
}

async function runTeammate(
  runner: Runner,
  state: () => State,
  loop: AgentLoop,
  prompt: string,
  tickMs: number,
  io: CommandIo,
  idle: (next: (signal: AbortSignal) => Promise<Wake>, signal: AbortSignal) => Promise<
    Wake | "stopped"
  >,
): Promise<number> {
  const stopping = new AbortController();
  let active: ActiveRun | undefined;
  const stop = () => {
    stopping.abort();
    active?.cancel();
  };
  Deno.addSignalListener("SIGTERM", stop);
  const key = rosterKey(loop.id, loop.agent);
  const stopped = () => rosterOf(state()).byKey[key]?.status === "stopped";
  const drive = async (work: Parameters<Runner["run"]>[1]) => {
    active = runner.run(loop, work);
    try {
      return await active.done;
    } finally {
      active = undefined;
    }
  };
  const maxTurns = loop.conversation.spawn?.maxTurns ?? null;
  let sources: { stop(): void } | undefined;
  try {
    if (loop.conversation.messages.length === 0) {
      await drive(({ signal }) => loop.prompt(prompt, { signal, maxTurns }));
    } else if (loop.hasUnfinishedWork) {
      await drive(({ signal }) => loop.resume("continue", undefined, { signal, maxTurns }));
    }
    sources = runner.startWakeSources({
      scope: () => ({ session: loop.id, agent: loop.agent }),
      tickMs,
      onError: (error) => {
        const detail = error instanceof Error ? error.message : String(error);
        io.stderr.write(`rein teammate: cannot check what wakes it: ${detail}\n`);
      },
    });
    while (!stopping.signal.aborted && !stopped()) {
      const wake = await idle((signal) => runner.nextWake(loop, signal), stopping.signal)
        .catch(() => undefined);
      if (wake === undefined || wake === "stopped" || stopping.signal.aborted) break;
      await drive(({ signal }) => runWake(loop, wake, { signal, maxTurns }));
    }
    return 0;
  } finally {
    sources?.stop();
    Deno.removeSignalListener("SIGTERM", stop);
  }
}
