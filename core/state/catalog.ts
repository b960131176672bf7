import type { Envelope, SessionStarted } from "../../events/event_types.ts";
import type { CatalogProjection } from "./projection.ts";
import { addUsage, type AgentStatus, emptyUsage, type UsageTotals } from "./sessions.ts";
import { evolveSlices } from "./slices.ts";

/** Prompts the catalog keeps for the REPL's history (Up/Down), newest last. */
export const RECENT_PROMPTS = 500;

/**
 * What the workspace knows of one session without its conversation: enough to list it (`rein
 * sessions`, the `--resume` picker), find it (`--resume PREFIX`, `--continue`) and decide what to
 * fold in full. Small and of fixed size per session, whatever the session's length.
 */
export interface CatalogEntry {
  id: string;
  /** `ts` of `session.started`. */
  startedAt: string;
  /** The main agent's model now, and its output limit. */
  model: string;
  maxTokens: number;
  workspace: string;
  /** The agent that started the session; its status is the session's. */
  mainAgent: string;
  forkedFrom: SessionStarted["forkedFrom"] | null;
  firstPrompt: string | null;
  /** Status of the main agent, and the message of its last failed or cancelled turn. */
  status: AgentStatus;
  lastError: string | null;
  /** Usage summed over every model response of every agent, and per model asked. */
  usage: UsageTotals;
  usageByModel: Record<string, UsageTotals>;
  /** Model rounds of the main agent (its answers, not compaction summaries). */
  rounds: number;
  /** seq of the session's first event (`session.started`), of its last, and how many it has. */
  firstSeq: number;
  lastSeq: number;
  events: number;
  /** Each agent's model now, by name: what its usage counts under. */
  agentModels: Record<string, string>;
}

export type { CatalogProjection } from "./projection.ts";

/**
 * What the workspace knows, folded from every event of the log: its sessions as
 * {@link CatalogEntry}s, its latest prompts, and the mechanisms' workspace-wide slices.
 */
export interface Catalog {
  byId: Record<string, CatalogEntry>;
  /** Session ids in order of start. */
  order: string[];
  /**
   * The main agents' prompts (not refused ones), in log order, each once (its latest), at most
   * {@link RECENT_PROMPTS}.
   */
  recentPrompts: string[];
  /** The mechanisms' workspace-wide slices, each at its key (see {@link CatalogProjection}). */
  [slice: string]: unknown;
}

/** The catalog's own fields, which no workspace-wide slice may take as its key. */
const OWN_FIELDS: ReadonlySet<string> = new Set(["byId", "order", "recentPrompts"]);

/**
 * The catalog of an empty log, with a slice for each of `projections`. Throws for a projection
 * whose key is one of the catalog's own fields.
 */
export function emptyCatalog(projections: readonly CatalogProjection[] = []): Catalog {
  const catalog: Catalog = { byId: {}, order: [], recentPrompts: [] };
  for (const projection of projections) {
    if (OWN_FIELDS.has(projection.key)) {
      throw new Error(
        `A catalog slice cannot be named "${projection.key}": the catalog's own field`,
      );
    }
    catalog[projection.key] = projection.initial();
  }
  return catalog;
}

/**
 * Fold one event into the catalog, and into the slices of `projections` that declare its type.
 * Every event of the log goes through it, so it does constant work per event (apart from the
 * prompt list, and what the mechanisms' slices do with their own events). Mutates and returns
 * `catalog`; pure otherwise, never throws on a well-formed log. Agrees with the session views
 * (`evolveSessions`) on every field they share.
 */
export function evolveCatalog(
  catalog: Catalog,
  event: Envelope,
  projections: readonly CatalogProjection[] = [],
): Catalog {
  evolveSlices(catalog, event, projections);
  if (event.type === "session.started") {
    const { data } = event;
    catalog.byId[event.session] = {
      id: event.session,
      startedAt: event.ts,
      model: data.model,
      maxTokens: data.maxTokens,
      workspace: data.workspace,
      mainAgent: event.agent,
      forkedFrom: data.forkedFrom ?? null,
      firstPrompt: null,
      status: "idle",
      lastError: null,
      usage: emptyUsage(),
      usageByModel: {},
      rounds: 0,
      firstSeq: event.seq,
      lastSeq: event.seq,
      events: 1,
      agentModels: { [event.agent]: data.model },
    };
    catalog.order.push(event.session);
    return catalog;
  }
  const entry = catalog.byId[event.session];
  if (!entry) return catalog;
  entry.lastSeq = event.seq;
  entry.events += 1;
  const main = event.agent === entry.mainAgent;
  const model = entry.agentModels[event.agent] ??= entry.model;
  switch (event.type) {
    case "user.prompted":
      if (!main) break;
      entry.firstPrompt ??= event.data.text;
      if (event.data.refused === undefined) rememberPrompt(catalog.recentPrompts, event.data.text);
      break;
    case "turn.started":
      if (main) entry.status = "unfinished";
      break;
    case "turn.ended":
      if (!main) break;
      entry.status = event.data.reason === "completed" ? "idle" : event.data.reason;
      entry.lastError = event.data.message ?? null;
      break;
    case "model.responded":
      addUsage(entry.usage, event.data.usage);
      addUsage(entry.usageByModel[model] ??= emptyUsage(), event.data.usage);
      if (main && (event.data as { purpose?: unknown }).purpose === undefined) entry.rounds += 1;
      break;
    case "model.switched":
      entry.agentModels[event.agent] = event.data.model;
      if (main) {
        entry.model = event.data.model;
        entry.maxTokens = event.data.maxTokens;
      }
      break;
    case "agent.spawned":
      entry.agentModels[event.agent] = event.data.model;
      break;
    default:
      break;
  }
  return catalog;
}

/**
 * The workspace-wide slice of `projection` in `catalog`. Throws when the catalog holds none (it
 * was folded without that projection).
 */
export function catalogSliceOf<Slice>(
  catalog: Catalog,
  projection: CatalogProjection<Slice>,
): Slice {
  if (!Object.hasOwn(catalog, projection.key)) {
    throw new Error(`Catalog slice "${projection.key}" is not folded here`);
  }
  return catalog[projection.key] as Slice;
}

/**
 * Whether `catalog` (from a snapshot) holds a slice for each of `projections`: one that lacks
 * any was folded without it, and cannot be continued. Pure.
 */
export function holdsSlices(catalog: Catalog, projections: readonly CatalogProjection[]): boolean {
  return projections.every((p) => Object.hasOwn(catalog, p.key));
}

function rememberPrompt(prompts: string[], text: string): void {
  const earlier = prompts.lastIndexOf(text);
  if (earlier >= 0) prompts.splice(earlier, 1);
  prompts.push(text);
  if (prompts.length > RECENT_PROMPTS) prompts.shift();
}
