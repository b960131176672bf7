import { forkHistory } from "../core/loop/fork_history.ts";
import { DEFAULT_AGENT } from "../core/harness.ts";
import type { AgentLoop, SessionSetup } from "../core/loop/agent_loop.ts";
import type { State } from "../core/state/state.ts";
import { foldSessions } from "../core/snapshots/mod.ts";
import { mainAgentOf, type SessionView } from "../core/state/sessions.ts";
import type { Catalog, CatalogEntry } from "../core/state/catalog.ts";
import type { Runtime } from "./runtime.ts";
import { SessionLease } from "./session_lease.ts";

/** What a new session records beyond its model and workspace. */
export type SessionOptions = Partial<
  Pick<
    SessionSetup,
    "fallbackModel" | "thinkingBudget" | "systemPrompt" | "appendSystemPrompt" | "place"
  >
>;

/** The options a session was started with, to start another one alike. Pure. */
export function sessionOptionsOf(view: SessionView): SessionOptions {
  return {
    ...(view.fallbackModel ? { fallbackModel: view.fallbackModel } : {}),
    ...(view.thinkingBudget ? { thinkingBudget: view.thinkingBudget } : {}),
    ...(view.systemPrompt ? { systemPrompt: view.systemPrompt } : {}),
    ...(view.appendSystemPrompt ? { appendSystemPrompt: view.appendSystemPrompt } : {}),
    // Started in a worktree (`rein -w`), or moved to one: the next session starts there too.
    ...placeOf(mainAgentOf(view).place),
  };
}

function placeOf(place: SessionView["agents"][string]["place"]): SessionOptions {
  if (place === null || place.cwd === "") return {};
  return { place: { cwd: place.cwd, ...(place.worktree ? { worktree: place.worktree } : {}) } };
}

/** Which session to run, from the CLI flags. */
export interface SessionFlags {
  resume?: string | undefined;
  continue?: boolean | undefined;
  fork?: string | undefined;
}

/** The chosen session, this process's lease on it, and how it was reopened (absent if new). */
export interface ChosenSession {
  session: AgentLoop;
  lease: SessionLease;
  reopened?: "resume" | "continue";
}

/**
 * Start a new session, or reopen one: `--resume ID` (a unique prefix is enough), `--continue`
 * (the latest session in the log), `--fork ID@SEQ` (a new session whose history is the source's
 * conversation as it was at SEQ). Throws with a message naming the bad value.
 */
export async function chooseSession(
  runtime: Runtime,
  flags: SessionFlags,
  setup: {
    model: string;
    maxTokens: number;
    newId: () => string;
    /** What else a new session records: fallback model, thinking, system prompt changes. */
    options?: SessionOptions;
  },
): Promise<ChosenSession> {
  const chosen = [flags.resume, flags.continue, flags.fork].filter((f) =>
    f !== undefined && f !== false
  );
  if (chosen.length > 1) throw new Error("Use only one of --resume, --continue and --fork");
  const base = {
    ...newSessionSetup(runtime, setup.model, setup.maxTokens, setup.newId()),
    ...setup.options,
  };
  if (flags.resume !== undefined) {
    const id = findSession(runtime.harness.state, flags.resume);
    const lease = await claim(runtime, id);
    await focusOrRelease(runtime, id, lease);
    warnIfElsewhere(runtime, id);
    return { session: runtime.harness.openSession(id), lease, reopened: "resume" };
  }
  if (flags.continue) {
    const id = latestSession(runtime.harness.state);
    if (!id) throw new Error(`No session to continue in "${runtime.logPath}"`);
    const lease = await claim(runtime, id);
    await focusOrRelease(runtime, id, lease);
    warnIfElsewhere(runtime, id);
    return { session: runtime.harness.openSession(id), lease, reopened: "continue" };
  }
  if (flags.fork !== undefined) {
    const match = /^(.+)@(\d+)$/.exec(flags.fork);
    if (!match) throw new Error(`Invalid --fork "${flags.fork}": expected SESSION@SEQ`);
    const { state } = runtime.harness;
    const id = findSession(state, match[1] ?? "");
    const seq = Number(match[2]);
    const source = state.catalog.byId[id];
    if (!source || seq > state.lastSeq) {
      throw new Error(
        `Invalid --fork "${flags.fork}": the log ends at seq ${state.lastSeq}`,
      );
    }
    const before = await stateAt(runtime.logPath, seq, [id]);
    const view = before.sessions.byId[id];
    if (!view) {
      throw new Error(`Invalid --fork "${flags.fork}": session ${id} starts after seq ${seq}`);
    }
    const history = forkHistory(mainAgentOf(view));
    const lease = await claim(runtime, base.id);
    const session = await runtime.harness.startSession({
      ...base,
      model: setup.model,
      forkedFrom: { session: id, seq },
      history,
    });
    return { session, lease };
  }
  const lease = await claim(runtime, base.id);
  return { session: await runtime.harness.startSession(base), lease };
}

/**
 * Take this process's lease on an agent of a session (its main agent unless named), then catch up on the log: the process that held the
 * lease until now may have appended its last events after this one read the log.
 */
export async function claim(
  runtime: Runtime,
  id: string,
  agent = runtime.harness.state.catalog.byId[id]?.mainAgent ?? DEFAULT_AGENT,
): Promise<SessionLease> {
  const lease = await SessionLease.acquire(runtime.leases ?? runtime.logPath, id, agent);
  try {
    await runtime.harness.store.catchUp();
  } catch (error) {
    lease.release();
    throw error;
  }
  return lease;
}

/** How a new session of this runtime's workspace is set up. Reads the platform, not the clock. */
export function newSessionSetup(
  runtime: Runtime,
  model: string,
  maxTokens: number,
  id: string,
): SessionSetup {
  return {
    id,
    model,
    workspace: runtime.workspace,
    maxTokens,
    platform: `${Deno.build.os} ${Deno.build.arch}`,
    settings: runtime.settings,
    ...(runtime.files.length > 0 ? { files: runtime.files } : {}),
  };
}

/**
 * The id of the one session of the catalog whose id starts with `prefix`. Throws if none or
 * several match. Pure.
 */
export function findSession(state: { catalog: Catalog }, prefix: string): string {
  if (state.catalog.byId[prefix]) return prefix;
  const matches = state.catalog.order.filter((id) => id.startsWith(prefix));
  if (matches.length === 1 && matches[0]) return matches[0];
  if (matches.length === 0) throw new Error(`No session "${prefix}" in the log`);
  throw new Error(`Session prefix "${prefix}" is ambiguous: ${matches.join(", ")}`);
}

/** The session with the most recent activity, or undefined for an empty log. Pure. */
export function latestSession(state: { catalog: Catalog }): string | undefined {
  let latest: CatalogEntry | undefined;
  for (const id of state.catalog.order) {
    const entry = state.catalog.byId[id];
    if (entry && (!latest || entry.lastSeq > latest.lastSeq)) latest = entry;
  }
  return latest?.id;
}

/**
 * Fold a log up to and including `seq`: the catalog, and the sessions in `focus` in full (every
 * one unless given), from snapshots where they hold.
 */
export async function stateAt(
  path: string,
  seq: number,
  focus: "all" | readonly string[] = "all",
): Promise<State> {
  return await foldSessions(path, { focus, at: seq });
}

/**
 * Why session `id` (in focus) counts as recorded elsewhere: its last part (start or resume) was
 * recorded on another machine, by a machine without a key, or by a rein before machine ids (a
 * repository can ship such a log too); undefined when it was recorded on this machine. Pure.
 */
export function recordedElsewhere(
  state: State,
  id: string,
  machine: string | null,
): string | undefined {
  const recorded = state.sessions.byId[id]?.settings?.machine;
  if (machine !== null && recorded === machine) return undefined;
  return recorded === undefined
    ? "it was recorded by a rein without machine ids, or elsewhere"
    : "it was recorded on another machine, or came with a log from elsewhere (a repository)";
}

/**
 * Warn, through the runtime's notices, when the session reopened is recorded elsewhere: it goes
 * on in the mode of the person's settings and flags, and what was allowed "always" in it does not
 * hold (the permissions fold drops it at the resume).
 */
export function warnIfElsewhere(runtime: Runtime, id: string): void {
  const why = recordedElsewhere(runtime.harness.state, id, runtime.machine);
  if (why === undefined) return;
  runtime.notice?.(
    `rein: session ${id} was not recorded on this machine (${why}): it goes on in the ` +
      'permission mode of your settings and flags, and what was allowed "always" in it holds ' +
      "only where your settings hold it",
  );
}

/** Fold session `id` in full into the runtime's state, or release `lease` and throw. */
async function focusOrRelease(runtime: Runtime, id: string, lease: SessionLease): Promise<void> {
  try {
    await runtime.harness.focus([id]);
  } catch (error) {
    lease.release();
    throw error;
  }
}
