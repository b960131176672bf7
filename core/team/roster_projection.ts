import type { Envelope, TeammateProcess, Usage } from "../../events/event_types.ts";
import type { CatalogProjection } from "../state/projection.ts";

/**
 * Where a teammate stands: `working` (its turn runs), `idle` (its turn ended; mail wakes it),
 * `waiting` (for a plan review or an answer: the protocols'), `stopped` (for good, as asked or
 * with the lead), `crashed` (its process exited unexpectedly and was not started again).
 */
export type TeammateStatus = "working" | "idle" | "waiting" | "stopped" | "crashed";

/** One teammate of a session, as the workspace's roster knows it. Plain JSON data. */
export interface TeammateEntry {
  session: string;
  /** Its agent name in the log, unique in its session. */
  name: string;
  role: string | null;
  model: string;
  /** Claude Code's `mode` it was spawned with (`plan`), or null. */
  mode: string | null;
  status: TeammateStatus;
  /** Its folder relative to the workspace; null: the workspace. */
  cwd: string | null;
  /** The host it was placed on (`spawn_teammate {host}`): its `rein host` runs it; null: the lead's. */
  host: string | null;
  /** Its process now (the last started), or null before it was started. */
  process: TeammateProcess | null;
  /** How many times its process was started (`agent.started`). */
  starts: number;
  /** How many turns it has begun, and whether the last one is still open. */
  turns: number;
  turnOpen: boolean;
  /** Its process's unexpected exits, oldest first (what the restart budget counts). */
  exits: TeammateExit[];
  /** Tokens of its model responses, summed (summaries and side calls included). */
  usage: TeammateUsage;
  /** The same, per model answered (what its cost is priced by: see `teammateCost`). */
  usageByModel: Record<string, TeammateUsage>;
  /** What it did last (`bash npm test`), or null before its first call. */
  lastAction: string | null;
  /** `ts` of its `agent.spawned`. */
  spawnedAt: string;
}

/** Tokens summed over model responses. */
export interface TeammateUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** No tokens yet. */
function noUsage(): TeammateUsage {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

/** Add a response's `usage` to `total`. */
function addTo(total: TeammateUsage, usage: Usage): void {
  total.input_tokens += usage.input_tokens;
  total.output_tokens += usage.output_tokens;
  total.cache_creation_input_tokens += usage.cache_creation_input_tokens ?? 0;
  total.cache_read_input_tokens += usage.cache_read_input_tokens ?? 0;
}

/** An unexpected exit of a teammate's process. */
export interface TeammateExit {
  /** `ts` of its `agent.exited`. */
  at: string;
  code: number | null;
  signal: string | null;
}

/**
 * Every session's teammates, keyed `<session>/<name>`, in the order they were spawned. Plain JSON
 * data, folded from every event of the log.
 */
export interface Roster {
  byKey: Record<string, TeammateEntry>;
  order: string[];
  /** The hosts that joined the log (`host.joined`), by name: the last join of each. */
  hosts: Record<string, HostEntry>;
}

/** A machine that offered itself to run teammates (`rein host`), as its last `host.joined` says. */
export interface HostEntry {
  name: string;
  /** Its working copy, absolute on that machine. */
  folder: string;
  machine: string | null;
  /** The envelope's session of its events, and of its lease (with agent `host`). */
  session: string;
  /** `ts` of its last `host.joined`, and whether a `host.left` came after it. */
  joinedAt: string;
  left: boolean;
}

/** The key of `name` of `session` in the roster. */
export function rosterKey(session: string, name: string): string {
  return `${session}/${name}`;
}

/** The roster of a log without teammates. */
export function emptyRoster(): Roster {
  return { byKey: {}, order: [], hosts: {} };
}

/**
 * Fold one event into the roster: a host joins at its `host.joined` (and is marked left at its
 * `host.left`); a teammate joins at its `agent.spawned` (one with `teammate`;
 * a subagent's is not a teammate), works from its turn's start and its process's start, idles at
 * its turn's end, is crashed at an unexpected exit (until it is started again, or for good at
 * `agent.stopped` for a crash) and stopped at any other `agent.stopped`, which is final. It
 * waits from a question it relayed to the person (`question.asked`) or a plan it submitted (its
 * `protocol.requested` of kind `plan_approval`) until its loop goes on (its next decision, call
 * or response; or its turn's end). Events of agents that are not teammates change nothing.
 * Mutates and returns `slice`.
 */
export function evolveRoster(slice: Roster, event: Envelope): Roster {
  if (event.type === "host.joined") {
    const { name, folder, machine } = event.data;
    slice.hosts[name] = {
      name,
      folder,
      machine,
      session: event.session,
      joinedAt: event.ts,
      left: false,
    };
    return slice;
  }
  if (event.type === "host.left") {
    const host = Object.values(slice.hosts).find((entry) => entry.session === event.session);
    if (host !== undefined) host.left = true;
    return slice;
  }
  const key = rosterKey(event.session, event.agent);
  if (event.type === "agent.spawned") {
    const { teammate, model, cwd } = event.data;
    if (teammate === undefined || slice.byKey[key] !== undefined) return slice;
    slice.byKey[key] = {
      session: event.session,
      name: event.agent,
      role: teammate.role ?? null,
      model,
      mode: teammate.mode ?? null,
      status: "working",
      cwd: cwd ?? null,
      host: teammate.host ?? null,
      process: null,
      starts: 0,
      turns: 0,
      turnOpen: false,
      exits: [],
      usage: noUsage(),
      usageByModel: {},
      lastAction: null,
      spawnedAt: event.ts,
    };
    slice.order.push(key);
    return slice;
  }
  const entry = slice.byKey[key];
  if (entry === undefined || entry.status === "stopped") return slice;
  switch (event.type) {
    case "agent.started":
      entry.process = event.data.process;
      entry.starts += 1;
      // A started process runs its first turn, or the turn it was killed in; else it waits.
      entry.status = entry.turns === 0 || entry.turnOpen ? "working" : "idle";
      break;
    case "agent.exited":
      entry.exits.push({ at: event.ts, code: event.data.code, signal: event.data.signal });
      entry.status = "crashed";
      break;
    case "agent.stopped":
      entry.status = event.data.reason === "crashed" ? "crashed" : "stopped";
      break;
    case "turn.started":
      entry.turns += 1;
      entry.turnOpen = true;
      entry.status = "working";
      break;
    case "turn.ended":
      entry.turnOpen = false;
      if (entry.status === "working" || entry.status === "waiting") entry.status = "idle";
      break;
    case "question.asked":
      if (entry.status === "working") entry.status = "waiting";
      break;
    case "protocol.requested":
      if (event.data.kind === "plan_approval" && entry.status === "working") {
        entry.status = "waiting";
      }
      break;
    case "permission.decided":
      if (entry.status === "waiting") entry.status = "working";
      break;
    case "tool.requested":
      entry.lastAction = actionOf(event.data.name, event.data.input);
      if (entry.status === "waiting") entry.status = "working";
      break;
    case "model.responded":
      if (entry.status === "waiting") entry.status = "working";
      addTo(entry.usage, event.data.usage);
      addTo(entry.usageByModel[event.data.model] ??= noUsage(), event.data.usage);
      break;
    case "model.switched":
      entry.model = event.data.model;
      break;
    case "agent.moved":
      // Into its task's worktree, or back (core/worktrees): where it works now.
      entry.cwd = event.data.cwd === "" ? null : event.data.cwd;
      break;
  }
  return slice;
}

/** The longest last action kept. */
const ACTION_LENGTH = 80;

/** `bash npm test`, `edit_file src/a.ts`: a call's tool and its command or path. Pure. */
export function actionOf(name: string, input: unknown): string {
  const fields = typeof input === "object" && input !== null
    ? input as Record<string, unknown>
    : {};
  const detail = ["command", "path", "file_path", "pattern", "to", "name"]
    .map((field) => fields[field])
    .find((value): value is string => typeof value === "string");
  const line = (detail === undefined ? name : `${name} ${detail}`).replace(/\s+/g, " ").trim();
  return line.length > ACTION_LENGTH ? `${line.slice(0, ACTION_LENGTH - 1)}…` : line;
}

/** The roster as the workspace-wide slice `state.catalog.team`. */
export const rosterProjection: CatalogProjection<Roster> = {
  key: "team",
  canHandle: [
    "host.joined",
    "host.left",
    "agent.spawned",
    "agent.moved",
    "agent.started",
    "agent.exited",
    "agent.stopped",
    "turn.started",
    "turn.ended",
    "tool.requested",
    "model.responded",
    "model.switched",
    "question.asked",
    "protocol.requested",
    "permission.decided",
  ],
  initial: emptyRoster,
  evolve: evolveRoster,
};
