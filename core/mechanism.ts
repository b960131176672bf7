import type { Envelope, EventType, RecordedFile } from "../events/event_types.ts";
import type { FilePlace } from "./files/file_place.ts";
import type { ArrivalSource } from "./loop/arrivals.ts";
import type { StageHandlers } from "./loop/stages.ts";
import type { WakeSource } from "./loop/wake_source.ts";
import type { SystemSection } from "./request/system_prompt.ts";
import type { CatalogProjection } from "./state/catalog.ts";
import type { Projection } from "./state/projection.ts";
import type { RenderedLine, ReportSection } from "./state/rendered_line.ts";
import type { State } from "./state/state.ts";
import type { PoolScope, ToolFilter, ToolSource } from "./tools/tool_pool.ts";
import type { ToolFacts } from "./tools/tool.ts";

export type { FilePlace } from "./files/file_place.ts";

/**
 * What a mechanism plugs into the kernel, all optional: a projection of the log (for mechanisms
 * outside the root fold), tools for the pool, sections of the system prompt, and handlers at the
 * loop's fixed points. A mechanism is registered once, in the composition root
 * (`createHarness`); the loop, the request builder and replay never name it.
 */
export interface Mechanism {
  /** Names the mechanism in diagnostics (`todos`, `permissions`). */
  name: string;
  /**
   * Event types the mechanism records that rein does not declare (an embedder's or a test's,
   * declared in TypeScript through `ExtensionPayloads`); the log accepts them on append and read.
   */
  eventTypes?: readonly string[];
  /** Folded into `state.extensions[projection.key]`. */
  projection?: Projection;
  /**
   * The mechanism's workspace-wide slice (the cron table, the task graph), folded from every event
   * of the log into `state.catalog[catalog.key]`, kept in catalog snapshots and
   * restored from them (see `CatalogProjection`).
   */
  catalog?: CatalogProjection;
  /**
   * The session feature the mechanism is (`tasks`, `cron`): recorded in `session.started`'s
   * `features` by the rein that starts (or resumes) a session. In a session recorded without it
   * (by an older rein) the mechanism is not active: no tools, sections, arrivals or stage
   * handlers for its agents, so the session replays as it ran. Its folds (`projection`,
   * `catalog`) run whatever the session. Active in every session when absent.
   */
  feature?: string;
  /**
   * Tools this mechanism adds to an agent's pool (may depend on the state: subsets, MCP). A
   * function of the state: the harness asks again only once the state has changed.
   */
  tools?: ToolSource;
  /**
   * The names and classes of every tool `tools` may add (a tool is its own facts), for what names
   * tools outside a pool: permission rules in settings, hook matchers, agent definitions'
   * `tools`. rein's own tools are known without it (core/tools/rein_tool_facts.json); a
   * mechanism of an embedder or a test declares its own here, and a harness makes them known
   * (`addToolFacts`), so that `TallyPeek(workspace)` is a rule like `Bash(npm test)`.
   */
  toolFacts?: readonly ToolFacts[];
  /** Narrows an agent's pool (a subagent's subset of tools, a read-only mode); as `tools`. */
  filterTools?: ToolFilter;
  /** System prompt sections for an agent now: a function of the state, as `tools`. */
  sections?(scope: PoolScope): SystemSection[];
  /** Handlers at the loop's fixed points. */
  stages?: StageHandlers;
  /**
   * Mechanisms (by name) whose stage handlers must run before this one's, at every stage (the
   * permission rules read what PreToolUse hooks said). Otherwise stages run in the order the
   * mechanisms are registered; see `orderStages`.
   */
  after?: readonly string[];
  /** Mechanisms (by name) whose stage handlers must run after this one's, as `after`. */
  before?: readonly string[];
  /**
   * Read the files this mechanism needs from disk (instructions, skill catalogs, agent
   * definitions), live only, when a session starts or resumes: they are recorded with it
   * (`session.started.files`) and the mechanism reads them from the session's view after that,
   * so replay never touches the disk. Should report bad files (`onNotice`) and never throw.
   */
  readFiles?(place: FilePlace): Promise<RecordedFile[]>;
  /**
   * Event types that reach an agent from outside its loop (mail from another agent, a finished
   * background job, a cron firing): replay feeds them at their recorded positions instead of
   * expecting the loop to produce them.
   */
  fedTypes?: readonly EventType[];
  /**
   * Events of a type the loops record too that reach the log from outside every loop, told by
   * their data (mail the person typed at the lead's REPL, `person: true`): replay feeds those
   * that this returns true for at their recorded positions, as `fedTypes`. Pure.
   */
  fedEvent?(event: Envelope): boolean;
  /**
   * What reached an agent from outside its loop (a job's end) and waits for its next model call,
   * pure over the state: the loop puts it before the model, recorded as `arrival.injected` with
   * the arrival's source and key, which the mechanism's projection folds to stop listing it (see
   * core/loop/arrivals.ts). The event that brought it is usually one of `fedTypes`.
   */
  arrivals?: ArrivalSource;
  /**
   * What wakes the mechanism's idle agents for a turn (a cron firing, a job's end), pure over the
   * state, and what a run waits for before it ends (`-p`); the runner asks again after each event
   * its process folds (see core/loop/wake_source.ts).
   */
  wake?: WakeSource;
  /**
   * The lines the REPL and `-p`'s progress show for one of this mechanism's events (an event of
   * another's: undefined; one it shows nothing for: none). Pure; plain text with style kinds,
   * which the CLI colours.
   */
  render?(event: Envelope): readonly RenderedLine[] | undefined;
  /**
   * What `rein state` prints of this mechanism's slice for one session of `state` (which holds the
   * session in full), as titled sections. Pure.
   */
  report?(state: State, context: ReportContext): readonly ReportSection[];
  /**
   * Stop what the mechanism runs outside the loops (a background job and its watcher; later an
   * MCP server, a teammate's process): called once by `Harness.close`, before the log closes.
   * Should not throw.
   */
  close?(): Promise<void>;
}

/** Which session a report is of, and when that session was last heard of. */
export interface ReportContext {
  session: string;
  /**
   * The time of the session's last event (its envelope's `ts`), as "now" for the report: how long
   * something still running has run.
   */
  at: string;
}
