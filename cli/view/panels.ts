import type { State } from "../../core/state/state.ts";
import { type Catalog, catalogSliceOf } from "../../core/state/catalog.ts";
import type { UsageTotals } from "../../core/state/sessions.ts";
import { taskGraphProjection } from "../../core/tasks/tasks_projection.ts";
import type { TaskStatus } from "../../core/tasks/tasks_projection.ts";
import { rosterProjection, teammateCost } from "../../core/team/mod.ts";
import { worktreeCatalogProjection } from "../../core/worktrees/mod.ts";
import { totalCost } from "../../core/models/cost.ts";
import type { AgentTodos } from "../../core/todos/todos_projection.ts";

/** One agent of the session as the page's lanes and roster show it. */
export interface AgentPanel {
  name: string;
  model: string;
  status: string;
  rounds: number;
  contextTokens: number;
  usage: UsageTotals;
  costUsd: number;
  /** Who started it (a subagent's or teammate's parent), what as, and where it works. */
  parent: string | null;
  kind: "lead" | "subagent" | "teammate";
  role: string | null;
  cwd: string | null;
}

/** A teammate of the session's roster. */
export interface TeammatePanel {
  name: string;
  role: string | null;
  status: string;
  model: string;
  cwd: string | null;
  turns: number;
  costUsd: number;
  lastAction: string | null;
}

/** A task of the workspace's graph, with the worktree bound to it. */
export interface TaskPanel {
  id: number;
  subject: string;
  status: TaskStatus;
  owner: string | null;
  blockedBy: number[];
  worktree: string | null;
}

/** What every panel of a session's page shows at one seq: all of it from the fold. */
export interface SessionPanels {
  session: string;
  /** The seq folded up to. */
  at: number;
  status: string;
  model: string;
  usage: UsageTotals;
  costUsd: number;
  agents: AgentPanel[];
  team: TeammatePanel[];
  tasks: TaskPanel[];
  /** Each agent's todo list. */
  todos: Record<string, Array<{ content: string; status: string }>>;
}

/**
 * The panels of session `id` in `state` (folded up to `at`, the catalog as of the same seq);
 * undefined when the session has not started by then. Pure.
 */
export function sessionPanels(state: State, id: string, at: number): SessionPanels | undefined {
  const view = state.sessions.byId[id];
  if (view === undefined) return undefined;
  const agents = Object.values(view.agents).map((agent): AgentPanel => ({
    name: agent.name,
    model: agent.model,
    status: agent.status,
    rounds: agent.rounds,
    contextTokens: agent.contextTokens,
    usage: agent.usage,
    costUsd: totalCost(agent.usageByModel),
    parent: agent.spawn?.parent ?? null,
    kind: agent.spawn === null ? "lead" : agent.spawn.teammate ? "teammate" : "subagent",
    role: agent.spawn?.teammate?.role ?? agent.spawn?.type ?? null,
    cwd: agent.spawn?.cwd ?? null,
  }));
  const todos = (state.extensions.todos as Record<string, Record<string, AgentTodos>> | undefined)
    ?.[id] ?? {};
  return {
    session: id,
    at,
    status: view.status,
    model: view.model,
    usage: view.usage,
    costUsd: totalCost(view.usageByModel),
    agents,
    team: teamOf(state.catalog, id),
    tasks: tasksOf(state.catalog),
    todos: Object.fromEntries(
      Object.entries(todos).map((
        [agent, list],
      ) => [agent, list.todos.map((t) => ({ content: t.content, status: t.status }))]),
    ),
  };
}

function teamOf(catalog: Catalog, id: string): TeammatePanel[] {
  const roster = catalogSliceOf(catalog, rosterProjection);
  return roster.order.flatMap((key) => {
    const entry = roster.byKey[key];
    if (entry === undefined || entry.session !== id) return [];
    return [{
      name: entry.name,
      role: entry.role,
      status: entry.status,
      model: entry.model,
      cwd: entry.cwd,
      turns: entry.turns,
      costUsd: teammateCost(entry),
      lastAction: entry.lastAction,
    }];
  });
}

function tasksOf(catalog: Catalog): TaskPanel[] {
  const worktrees = catalogSliceOf(catalog, worktreeCatalogProjection);
  const byTask = new Map<number, string>();
  for (const name of worktrees.order) {
    const entry = worktrees.byName[name];
    if (entry?.task != null && entry.state !== "removed") byTask.set(entry.task, entry.name);
  }
  return catalogSliceOf(catalog, taskGraphProjection).tasks.map((task) => ({
    id: task.id,
    subject: task.subject,
    status: task.status,
    owner: task.owner === null ? null : task.owner.agent,
    blockedBy: task.blockedBy,
    worktree: byTask.get(task.id) ?? null,
  }));
}
