import {
  type AgentSpawned,
  assertExhaustive,
  type Envelope,
  isKernelEvent,
  type RecordedFile,
  type SettingsSnapshot,
  type TurnEndReason,
  type Usage,
} from "../../events/event_types.ts";
import { type Conversation, emptyConversation, foldConversation } from "./conversation.ts";

/** What an agent is doing, as far as the log tells. */
export type AgentStatus =
  /** Waiting for a prompt; its last turn ended normally. */
  | "idle"
  /** A turn started and never ended: it is running now, or its process died. */
  | "unfinished"
  | Exclude<TurnEndReason, "completed">;

/** An agent's folder as moved to: relative to the workspace (`""` the workspace itself). */
export interface AgentPlaceView {
  cwd: string;
  /** The worktree `cwd` is, by name; null when it is none. */
  worktree: string | null;
  /** Where the agent was before it entered a worktree (or before this move, outside one). */
  from: string;
}

/** Token counts summed over model responses. */
export type UsageTotals = Required<{ [K in keyof Usage]: number }>;

/** One agent of a session: its conversation, and how its turns went. */
export interface AgentView extends Conversation {
  name: string;
  /** The model of the agent's requests, and their output limit. */
  model: string;
  maxTokens: number;
  /** The model the agent fell back from in this turn (to go back to at its end), or null. */
  fellBackFrom: { model: string; maxTokens: number } | null;
  /** Overloaded (529) failures in a row of the request under way. */
  overloadedInARow: number;
  /** Answers of this turn continued after hitting the output limit. */
  continuations: number;
  /** Usage of the turn under way (or the last one), per model asked. */
  turnUsageByModel: Record<string, UsageTotals>;
  /** Usage of the agent's last answer: how full its context was then. */
  lastUsage: Usage | null;
  status: AgentStatus;
  /** Message of the agent's last failed or cancelled turn. */
  lastError: string | null;
  /** How the agent was started by a parent's `task` call; null for an agent that was not. */
  spawn: AgentSpawned | null;
  /**
   * Where its last `agent.moved` (or, for the main agent, `session.started`'s `place`) put it,
   * and `from`, where it was before it entered a worktree (what `ExitWorktree` goes back to);
   * null when it works where it was spawned (see core/state/agent_place.ts).
   */
  place: AgentPlaceView | null;
  /** Usage summed over the agent's model responses. */
  usage: UsageTotals;
  /** The same, per model asked (the id requests named, `[1m]` included). */
  usageByModel: Record<string, UsageTotals>;
}

/** The projected view of one session. */
export interface SessionView {
  id: string;
  /** `ts` of `session.started`. */
  startedAt: string;
  /** The clock reading recorded at start (drives the system prompt's date). */
  clockAtStart: string;
  /** The main agent's model now (the session's first, unless switched), and its output limit. */
  model: string;
  workspace: string;
  platform: string;
  maxTokens: number;
  forkedFrom: { session: string; seq: number } | null;
  /** The model to fall back to when the model keeps being overloaded, or null. */
  fallbackModel: string | null;
  /** Extended thinking's budget per request, or null when thinking is off. */
  thinkingBudget: number | null;
  /** The user's replacement for rein's instructions, and their addition, when given. */
  systemPrompt: string | null;
  appendSystemPrompt: string | null;
  /**
   * The settings files and permission flags recorded at the start or the last resume; null for
   * sessions recorded before rein read settings into the log.
   */
  settings: SettingsSnapshot | null;
  /** The mechanisms' files as read at the start or the last resume (none when not recorded). */
  files: RecordedFile[];
  /** The agent that started the session; its status is the session's. */
  mainAgent: string;
  firstPrompt: string | null;
  /** Status of the main agent. */
  status: AgentStatus;
  /** Message of the main agent's last failed or cancelled turn. */
  lastError: string | null;
  /** Usage summed over every model response of every agent. */
  usage: UsageTotals;
  /** The same, per model asked. */
  usageByModel: Record<string, UsageTotals>;
  /** seq of the session's last event. */
  lastSeq: number;
  /** Every agent that has recorded an event in the session, by name. */
  agents: Record<string, AgentView>;
}

/** The sessions of a log. */
export interface SessionsState {
  byId: Record<string, SessionView>;
  /** Session ids in order of start. */
  order: string[];
}

/** No sessions. */
export function emptySessions(): SessionsState {
  return { byId: {}, order: [] };
}

/**
 * Fold one event into the sessions. Mutates and returns `sessions`. Pure otherwise; never throws
 * on a well-formed log: events of a session that never started are ignored. Any event counts as
 * the session's last and makes its agent known; only the kernel's own types (see
 * `KernelPayloads`) change more.
 */
export function evolveSessions(sessions: SessionsState, event: Envelope): SessionsState {
  if (event.type === "session.started") {
    const { data } = event;
    sessions.byId[event.session] = {
      id: event.session,
      startedAt: event.ts,
      clockAtStart: data.startedAt,
      model: data.model,
      workspace: data.workspace,
      platform: data.platform,
      maxTokens: data.maxTokens,
      forkedFrom: data.forkedFrom ?? null,
      fallbackModel: data.fallbackModel ?? null,
      thinkingBudget: data.thinkingBudget ?? null,
      systemPrompt: data.systemPrompt ?? null,
      appendSystemPrompt: data.appendSystemPrompt ?? null,
      settings: data.settings ?? null,
      files: data.files ?? [],
      mainAgent: event.agent,
      firstPrompt: null,
      status: "idle",
      lastError: null,
      usage: emptyUsage(),
      usageByModel: {},
      lastSeq: event.seq,
      agents: {
        [event.agent]: emptyAgent(event.agent, data, emptyConversation(data.history)),
      },
    };
    if (data.place !== undefined) {
      (sessions.byId[event.session]?.agents[event.agent] as AgentView).place = {
        cwd: data.place.cwd,
        worktree: data.place.worktree ?? null,
        from: "",
      };
    }
    sessions.order.push(event.session);
    return sessions;
  }
  const session = sessions.byId[event.session];
  if (!session) return sessions;
  session.lastSeq = event.seq;
  const agent = session.agents[event.agent] ??= emptyAgent(
    event.agent,
    session,
    emptyConversation(),
  );
  // A mechanism's event changes nothing else: the main agent's status is the session's already.
  if (!isKernelEvent(event)) return sessions;
  foldConversation(agent, event);
  switch (event.type) {
    case "user.prompted":
      if (event.agent === session.mainAgent) session.firstPrompt ??= event.data.text;
      break;
    case "turn.started":
      agent.status = "unfinished";
      agent.continuations = 0;
      agent.turnUsageByModel = {};
      break;
    case "model.continued":
      agent.continuations += 1;
      break;
    case "turn.ended":
      agent.status = event.data.reason === "completed" ? "idle" : event.data.reason;
      agent.lastError = event.data.message ?? null;
      break;
    case "model.failed":
      agent.overloadedInARow = event.data.kind === "overloaded" ? agent.overloadedInARow + 1 : 0;
      break;
    case "model.responded":
      agent.overloadedInARow = 0;
      addUsage(agent.usage, event.data.usage);
      addUsage(session.usage, event.data.usage);
      addUsage(agent.usageByModel[agent.model] ??= emptyUsage(), event.data.usage);
      addUsage(agent.turnUsageByModel[agent.model] ??= emptyUsage(), event.data.usage);
      if (event.data.purpose === undefined) agent.lastUsage = event.data.usage;
      addUsage(session.usageByModel[agent.model] ??= emptyUsage(), event.data.usage);
      break;
    case "model.switched":
      if (event.data.reason === "fallback" || event.data.reason === "escalate") {
        agent.fellBackFrom ??= { model: agent.model, maxTokens: agent.maxTokens };
      } else agent.fellBackFrom = null;
      agent.overloadedInARow = 0;
      agent.model = event.data.model;
      agent.maxTokens = event.data.maxTokens;
      if (event.agent === session.mainAgent) {
        session.model = event.data.model;
        session.maxTokens = event.data.maxTokens;
      }
      break;
    case "agent.spawned":
      agent.spawn = event.data;
      agent.model = event.data.model;
      agent.maxTokens = event.data.maxTokens;
      break;
    case "agent.moved": {
      const before = agent.place ?? { cwd: agent.spawn?.cwd ?? "", worktree: null, from: "" };
      agent.place = {
        cwd: event.data.cwd,
        worktree: event.data.worktree ?? null,
        from: before.worktree === null ? before.cwd : before.from,
      };
      break;
    }
    case "session.resumed":
      if (event.data.settings !== undefined) session.settings = event.data.settings;
      if (event.data.files !== undefined) session.files = event.data.files;
      break;
    case "model.requested":
    case "model.cancelled":
    case "model.discarded":
    case "tool.requested":
    case "tool.completed":
    case "session.ended":
    case "reminder.added":
    case "hook.context":
    case "compaction.started":
    case "compaction.completed":
    case "compaction.failed":
    case "context.spilled":
    case "context.snipped":
    case "context.cleared":
    case "arrival.injected":
      break;
    default:
      assertExhaustive(event);
  }
  if (event.agent === session.mainAgent) {
    session.status = agent.status;
    session.lastError = agent.lastError;
  }
  return sessions;
}

/**
 * The view of `agent` in `session`: an empty one (idle, no messages) when the agent has recorded
 * nothing yet. Pure.
 */
export function agentOf(session: SessionView, agent: string): AgentView {
  return session.agents[agent] ?? emptyAgent(agent, session, emptyConversation());
}

/** The view of the agent that started `session`. Pure. */
export function mainAgentOf(session: SessionView): AgentView {
  return agentOf(session, session.mainAgent);
}

/** Zero usage. */
export function emptyUsage(): UsageTotals {
  return {
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
  };
}

/** Add one response's usage to `total` (mutates it). */
export function addUsage(total: UsageTotals, usage: Usage): void {
  total.input_tokens += usage.input_tokens;
  total.output_tokens += usage.output_tokens;
  total.cache_creation_input_tokens += usage.cache_creation_input_tokens ?? 0;
  total.cache_read_input_tokens += usage.cache_read_input_tokens ?? 0;
}

function emptyAgent(
  name: string,
  session: { model: string; maxTokens: number },
  conversation: Conversation,
): AgentView {
  return {
    ...conversation,
    name,
    model: session.model,
    maxTokens: session.maxTokens,
    fellBackFrom: null,
    overloadedInARow: 0,
    continuations: 0,
    turnUsageByModel: {},
    lastUsage: null,
    status: "idle",
    lastError: null,
    spawn: null,
    place: null,
    usage: emptyUsage(),
    usageByModel: {},
  };
}
