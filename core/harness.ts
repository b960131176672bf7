/**
 * The composition root: the one place where the log, the projected state, the effects, the base
 * tools and the mechanisms are wired into agent loops. The CLI, the tests and replay all build
 * their sessions with {@link createHarness}; they differ only in the store and the effects they
 * pass. A mechanism joins rein with one entry in {@link reinMechanisms} (or, for an embedder or
 * a test, in `options.mechanisms`).
 */
import { join } from "../events/posix_path.ts";
import type { EventListener, EventStore } from "../events/store.ts";
import type { Envelope, RecordedFile } from "../events/event_types.ts";
import { AgentLoop, type SessionSetup } from "./loop/agent_loop.ts";
import type { LoopDeps, LoopEffects } from "./loop/loop_deps.ts";
import { composeStages } from "./loop/stages.ts";
import { orderStages } from "./loop/stage_order.ts";
import type { MessagesRequest } from "./effects/model_client.ts";
import { assembleRequest } from "./request/assemble_request.ts";
import type { FilePlace, Mechanism } from "./mechanism.ts";
import { type PermissionAsker, permissionsMechanism } from "./permissions/permissions_mechanism.ts";
import { readDeniedJudge } from "./permissions/read_denied.ts";
import { CLAUDE_BASH_RULES } from "./permissions/policy.ts";
import { recoveryMechanism } from "./recovery/recovery.ts";
import { credentialPaths } from "./sandbox/credential_paths.ts";
import { CLAUDE_HOOK_EVENTS, hooksMechanism } from "./hooks/hooks_mechanism.ts";
import { claudeTranscriptWriter } from "./hooks/claude_transcript.ts";
import { environmentMechanism } from "./environment/environment_mechanism.ts";
import { skillsMechanism } from "./skills/skills_mechanism.ts";
import { skillRules } from "./skills/skill_set.ts";
import { commandsMechanism } from "./commands/commands_mechanism.ts";
import { pluginsMechanism } from "./plugins/plugins_mechanism.ts";
import { grantedRules } from "./commands/command_grants.ts";
import { memoryMechanism } from "./memory/memory_mechanism.ts";
import { todosMechanism } from "./todos/todos_mechanism.ts";
import { agentsMechanism } from "./agents/agents_mechanism.ts";
import { compactionMechanism } from "./compaction/compaction_mechanism.ts";
import { cronMechanism } from "./cron/cron_mechanism.ts";
import { jobsMechanism } from "./jobs/jobs_mechanism.ts";
import { pendingArrivals } from "./loop/arrivals.ts";
import { tasksMechanism } from "./tasks/tasks_mechanism.ts";
import { mailMechanism } from "./mail/mod.ts";
import { protocolsMechanism, SHUTDOWN_TIMEOUT_ENV, shutdownTimeoutMs } from "./protocols/mod.ts";
import { WORKTREE_MOVES_FEATURE, worktreesMechanism } from "./worktrees/mod.ts";
import { TEAM_HOSTS_FEATURE, teamMechanism, type TeamOptions } from "./team/mod.ts";
import { mcpMechanism, type McpOptions } from "./mcp/mod.ts";
import { teamQuestionsMechanism } from "./team_questions/mod.ts";
import { autonomyMechanism } from "./autonomy/mod.ts";
import { CLAIM_WHILE_STOPPING_FEATURE } from "./autonomy/idle_claim.ts";
import { fileReadsProjection, READ_BEFORE_EDIT } from "./tools/file_reads.ts";
import { sessionEnvProjection } from "./tools/session_env.ts";
import { toolEventHooks } from "./hooks/tool_event_hooks.ts";
import { costOf } from "./models/cost.ts";
import type { Settings } from "./settings/settings.ts";
import type { Projection } from "./state/projection.ts";
import { evolve, type Focus, initialState, type State } from "./state/state.ts";
import { SessionFocus, type SessionsLoader } from "./state/session_focus.ts";
import { type Catalog, type CatalogProjection, holdsSlices } from "./state/catalog.ts";
import { gatedByFeature } from "./feature_gate.ts";
import { StartPointError } from "../events/start_point.ts";
import { createBaseTools } from "./tools/base_tools.ts";
import { placedBaseTools } from "./tools/placed_tools.ts";
import { addToolFacts } from "./tools/tool_names.ts";
import { agentCwd } from "./state/agent_place.ts";
import { type CallRunner, executeCall } from "./tools/executor.ts";
import type { BashSandbox } from "./tools/bash.ts";
import type { AnyTool } from "./tools/tool.ts";
import { type PoolScope, type ToolPool, toolPool, type ToolSource } from "./tools/tool_pool.ts";
import type { SystemSection } from "./request/system_prompt.ts";

/** The name of the agent a session starts with, unless told otherwise. */
export const DEFAULT_AGENT = "lead";

/**
 * What rein's own mechanisms are wired with: the harness's options they use (the effects each
 * optional: a mechanism whose effect is absent goes without it, as in replay).
 */
export type MechanismOptions =
  & Pick<
    HarnessOptions,
    "workspace" | "ask" | "transcriptPath" | "transcriptVersion" | "hookEnv" | "sandbox"
  >
  & { effects?: Partial<HarnessEffects> };

/**
 * rein's own mechanisms, one line each. Their stages run in this order, except where a mechanism
 * declares that its own run `after` or `before` another's (see `orderStages`).
 */
export function reinMechanisms(
  options: MechanismOptions,
  /**
   * The harness's log, once it is open (throws before): for what appends from outside an agent's
   * loop, under the log's lock (a background job's watcher appends its end).
   */
  log: () => EventStore = noLog,
): Mechanism[] {
  const { workspace, sandbox, effects = {} } = options;
  const { clock, writeFile } = effects;
  const hooks = {
    workspace,
    transcriptPath: options.transcriptPath ?? "",
    env: options.hookEnv ?? {},
    // No sandbox: hooks that run are the person's own or a trusted repository's, and run as the
    // person, as in Claude Code (an untrusted repository's hooks do not run at all).
  };
  // The Claude Code transcript hooks read is written live only (replay writes no file).
  const transcripts = writeFile && hooks.transcriptPath !== ""
    ? claudeTranscriptWriter(hooks.transcriptPath, { version: options.transcriptVersion ?? "" })
    : undefined;
  return [
    environmentMechanism,
    cronMechanism(clock ? { clock } : {}),
    hooksMechanism(hooks, transcripts),
    // The plan gate after PreToolUse hooks and before the permission rules. Shutdown timeouts are
    // watched where teammates run (never in replay: expiries are fed).
    protocolsMechanism(
      effects.teammates
        ? {
          watch: {
            log,
            clock: clock ?? (() => new Date()),
            timeoutMs: shutdownTimeoutMs(options.hookEnv?.[SHUTDOWN_TIMEOUT_ENV]),
          },
        }
        : {},
    ),
    // A custom command's or a skill's allowed-tools pre-approve while its turn runs.
    permissionsMechanism({
      ...options,
      granted: (state, session, agent) => grantedRules(state, session, agent, skillRules),
    }),
    recoveryMechanism,
    todosMechanism(),
    memoryMechanism(),
    skillsMechanism(new URL("../skills/", import.meta.url)),
    commandsMechanism(),
    agentsMechanism(),
    // Plugin folders: their manifests are recorded (their parts are read by the mechanisms above).
    pluginsMechanism(),
    // A large tool output kept out of the context is written live only (replay writes nothing).
    compactionMechanism(writeFile && ((path, text) => writeFile(join(workspace, path), text))),
    jobsMechanism({
      workspace,
      ...(sandbox ? { sandbox } : {}),
      log,
      monotonicMs: effects.monotonicMs ?? (() => performance.now()),
    }),
    tasksMechanism({ hooks: toolEventHooks(hooks, transcripts) }),
    mailMechanism,
    worktreesMechanism({ workspace, hooks: toolEventHooks(hooks, transcripts) }),
    // Agents moving into worktrees (enter_worktree, exit_worktree): the worktrees read it.
    { name: WORKTREE_MOVES_FEATURE, feature: WORKTREE_MOVES_FEATURE },
    // After worktrees: its `Agent` with a `name` wraps the task tool as the worktrees left it.
    teamMechanism(effects.teammates ?? {}),
    // Teammates placed on other machines' hosts (spawn_teammate {host}): the team reads it.
    { name: TEAM_HOSTS_FEATURE, feature: TEAM_HOSTS_FEATURE },
    // No task claimed for a teammate that is stopping: the autonomy mechanism reads it.
    { name: CLAIM_WHILE_STOPPING_FEATURE, feature: CLAIM_WHILE_STOPPING_FEATURE },
    // MCP servers' tools, from what each session recorded of them (the servers run live only).
    mcpMechanism({ workspace, ...effects.mcp }),
    // A teammate's permission questions relayed to the person at the lead's REPL.
    teamQuestionsMechanism(),
    // After the team: an idle teammate claims a ready task by itself (s17).
    autonomyMechanism({ hooks: toolEventHooks(hooks, transcripts) }),
    // Hooks as Claude Code's beyond the first ones (the hooks mechanism reads the feature).
    { name: CLAUDE_HOOK_EVENTS, feature: CLAUDE_HOOK_EVENTS },
    // Read before edit: the file tools check it; the mechanism is its fold and its feature.
    { name: "read_before_edit", feature: READ_BEFORE_EDIT, projection: fileReadsProjection },
    // Bash rules read as Claude Code reads them: a feature the permission policy reads.
    { name: "claude_bash_rules", feature: CLAUDE_BASH_RULES },
    // What SessionStart hooks wrote to CLAUDE_ENV_FILE: the fold bash reads its variables from.
    { name: "session_env", projection: sessionEnvProjection },
  ];
}

/**
 * Every projection of rein's own mechanisms, as a harness folds them, without live wiring (no
 * asker, sandbox, effects or log: a projection is pure): what `rein state`, `rein log check` and
 * (next) a web view fold, so a mechanism registered in {@link reinMechanisms} is folded there too.
 */
export function reinProjections(): Projection[] {
  return reinMechanisms({ workspace: "/" }).flatMap((m) => (m.projection ? [m.projection] : []));
}

/**
 * The workspace-wide slices of rein's own mechanisms (`Mechanism.catalog`), as
 * {@link reinProjections}: what a catalog folded outside a harness (`rein state`, `rein tasks`, a
 * catalog snapshot) folds.
 */
export function reinCatalogProjections(): CatalogProjection[] {
  return catalogProjectionsOf(reinMechanisms({ workspace: "/" }));
}

/**
 * The session features of rein's own mechanisms (`Mechanism.feature`), in their order: what a
 * session this rein starts or resumes records (`settings.features`).
 */
export function reinFeatures(): string[] {
  // A feature two mechanisms share (mail and the team are `teams`) is listed once.
  return [
    ...new Set(reinMechanisms({ workspace: "/" }).flatMap((m) => (m.feature ? [m.feature] : []))),
  ];
}

/** The workspace-wide slices of `mechanisms`, in their order. */
export function catalogProjectionsOf(mechanisms: readonly Mechanism[]): CatalogProjection[] {
  return mechanisms.flatMap((m) => (m.catalog ? [m.catalog] : []));
}

function noLog(): EventStore {
  throw new Error("This harness has no log to append to from outside the loop");
}

/**
 * The effects a harness runs on: live ones for the CLI and tests, served ones for replay. As the
 * loop's (see `LoopEffects`), with a monotonic clock for tool durations and the call runner
 * optional (live by default: run the tool).
 */
export type HarnessEffects = Omit<LoopEffects, "runCall"> & {
  /** Monotonic milliseconds, for tool durations. */
  monotonicMs: () => number;
  runCall?: CallRunner;
  /** Writes a file outside the log (a large tool output kept for the model); absent in replay. */
  writeFile?: (path: string, text: string) => Promise<void>;
  /** Starts and stops teammates' processes (core/team); absent in replay and where none run. */
  teammates?: TeamOptions;
  /** The MCP servers this process runs (core/mcp); absent in replay and where none is configured. */
  mcp?: Omit<McpOptions, "workspace">;
};

/** What a harness is built from. */
export interface HarnessOptions {
  /**
   * Open the log with `onEvent` as its listener (it folds every event, those already in the log
   * included, into the harness's state), accepting the mechanisms' own `eventTypes`.
   */
  openStore(
    onEvent: EventListener,
    format: { eventTypes: readonly string[] },
  ): Promise<EventStore> | EventStore;
  /** The workspace the base tools work in and are confined to. */
  workspace: string;
  /** rein's own files that the file tools refuse (the log and `.rein/`). */
  protectedPaths?: readonly string[];
  /** Folders inside `protectedPaths` that stay open to the file tools (`.rein/memory/`). */
  openPaths?: readonly string[];
  effects: HarnessEffects;
  /** Merged settings (`.claude/settings*.json`); the mechanisms that use them read them here. */
  settings?: Settings;
  /** The OS sandbox bash runs in (core/sandbox's `resolveSandbox`); unconfined when absent. */
  sandbox?: BashSandbox | PromiseLike<BashSandbox | undefined>;
  /** Asks the person about a call that needs permission (the REPL gives one). */
  ask?: PermissionAsker;
  /** The event log's path, which hooks get as `transcript_path`. */
  transcriptPath?: string;
  /** The version the transcript's lines give (`version`, Claude Code's own there): rein's. */
  transcriptVersion?: string;
  /** The environment hook commands run with (without secrets); none when absent. */
  hookEnv?: Record<string, string>;
  /** Mechanisms beyond rein's own (an embedder's, a test's), after them. */
  mechanisms?: readonly Mechanism[];
  /**
   * Wraps every mechanism, rein's own included, before the harness uses it: what a bench uses to
   * time each mechanism's work (bench/mechanism_cost_bench.ts). Must keep what it wraps doing
   * the same.
   */
  wrapMechanism?: (mechanism: Mechanism) => Mechanism;
  /** Turn an error thrown while folding `event` into the error to report (file and line). */
  foldError?: (error: unknown, event: Envelope) => Error;
  /**
   * The sessions folded in full from the start (see `Focus`): every one (the default), or those
   * named; {@link Harness.focus} and {@link Harness.startSession} add more. A process that only
   * starts a new session passes none, so it folds the catalog alone.
   */
  focus?: "all" | readonly string[];
  /**
   * The catalog at `seq`, from a snapshot: the state starts there, and the store's first event
   * must be `seq + 1` (the store opens at the snapshot's offset). It must hold the slice of every
   * mechanism's `catalog` (else `createHarness` throws a `StartPointError`, before opening the log).
   */
  start?: { catalog: Catalog; seq: number };
  /**
   * The full state (views and mechanism slices, as `evolveFocused` builds them) of the sessions
   * `ids` as of seq `upTo`, from the log and its snapshots; it may hold more sessions (those they
   * were forked from). Needed by {@link Harness.focus} unless every session is in focus.
   */
  loadSessions?: SessionsLoader;
}

/** A wired harness: start or open sessions, each a loop per agent. */
export interface Harness {
  readonly store: EventStore;
  /** The projected state, kept current by the store's listener. */
  readonly state: State;
  readonly deps: LoopDeps;
  readonly mechanisms: readonly Mechanism[];
  readonly settings: Settings | undefined;
  /** Start a new session driven by `agent` (the default agent unless given). */
  startSession(setup: SessionSetup, agent?: string): Promise<AgentLoop>;
  /** The sessions the state follows in full (see `Focus`). */
  readonly focused: Focus;
  /**
   * Fold the sessions `ids` of the log in full from now on (their views and mechanism slices, as
   * of the last event folded, then live): before {@link Harness.openSession} of a session this
   * harness did not start. Throws for a session the log does not hold.
   */
  focus(ids: readonly string[]): Promise<void>;
  /**
   * `agent` (the session's main agent unless given) of a session in focus. Throws if the log
   * does not hold it or it is not in focus.
   */
  openSession(id: string, agent?: string): AgentLoop;
  /**
   * The first request a new session with `setup` would send, assembled on a state of its own:
   * nothing is appended (`rein agent --print-system-prompt`).
   */
  previewRequest(setup: SessionSetup, agent?: string): MessagesRequest;
  /** Every mechanism's files as they are on disk now, to record with a session (live only). */
  readFiles(place: FilePlace): Promise<RecordedFile[]>;
  /** The tool of that name in an agent's pool now, for rendering its calls. */
  findTool(name: string, scope?: Partial<PoolScope>): AnyTool | undefined;
  /** Close every mechanism (`Mechanism.close`: what runs outside the loops), then the log. */
  close(): Promise<void>;
}

/** Wire a harness. Opens the log through `options.openStore`; nothing else runs until asked. */
export async function createHarness(options: HarnessOptions): Promise<Harness> {
  /** The log, once open: for what appends to it from outside the loops. */
  const opened: { store?: EventStore } = {};
  const mechanisms = [
    ...reinMechanisms(options, () => {
      if (!opened.store) throw new Error("The log is not open yet");
      return opened.store;
    }),
    ...(options.mechanisms ?? []),
  ].map((mechanism) => gatedByFeature(options.wrapMechanism?.(mechanism) ?? mechanism));
  addToolFacts(mechanisms.flatMap((mechanism) => mechanism.toolFacts ?? []));
  const projections = mechanisms.flatMap((m) => (m.projection ? [m.projection] : []));
  checkUnique(projections);
  const catalogProjections = catalogProjectionsOf(mechanisms);
  checkUnique(catalogProjections, "catalog slice");
  const state = initialState(projections, catalogProjections);
  if (options.start) startFrom(state, options.start, catalogProjections);
  /** Changes each time the state does: what was made from it before is the same while it holds. */
  let version = 0;
  const focus = new SessionFocus(state, projections, options.focus, options.loadSessions, () => {
    version += 1;
  });
  const focused = focus.focused;
  const eventTypes = mechanisms.flatMap((m) => m.eventTypes ?? []);
  const store = await options.openStore((event) => {
    try {
      version += 1;
      evolve(state, event, projections, focused, catalogProjections);
      focus.folded(event);
    } catch (error) {
      throw options.foldError ? options.foldError(error, event) : error;
    }
  }, { eventTypes });
  opened.store = store;
  const { placeOf, baseTools } = placedTools(options);
  const sources: ToolSource[] = [
    baseTools,
    ...mechanisms.flatMap((m) => (m.tools ? [m.tools] : [])),
  ];
  const filters = mechanisms.flatMap((m) => (m.filterTools ? [m.filterTools] : []));
  // Each agent's pool and sections as made last, and the state's version then: the same again is
  // that object again, and while the state has not changed, they are not made again (the pool is
  // asked for several times a round). Both are functions of the state.
  const pools = new Map<string, { version: number; pool: ToolPool }>();
  const sections = new Map<string, { version: number; made: SystemSection[] }>();
  const arrivals = mechanisms.flatMap((m) => (m.arrivals ? [m.arrivals] : []));
  const { monotonicMs, runCall, writeFile: _writeFile, ...effects } = options.effects;
  const deps: LoopDeps = {
    store,
    state,
    effects: {
      ...effects,
      runCall: runCall ??
        ((call, tools, context) => executeCall(call, tools, context, monotonicMs)),
    },
    stages: composeStages(orderStages(mechanisms)),
    pool: (scope) => {
      if (scope.state !== state) return toolPool(scope, sources, filters);
      const key = agentKey(scope);
      const before = pools.get(key);
      if (before?.version === version) return before.pool;
      const pool = toolPool(scope, sources, filters, before?.pool);
      pools.set(key, { version, pool });
      return pool;
    },
    sections: (scope) => {
      if (scope.state !== state) return mechanisms.flatMap((m) => m.sections?.(scope) ?? []);
      const key = agentKey(scope);
      const before = sections.get(key);
      if (before?.version === version) return before.made;
      const fresh = mechanisms.flatMap((m) => m.sections?.(scope) ?? []);
      const made = before && sameSections(before.made, fresh) ? before.made : fresh;
      sections.set(key, { version, made });
      return made;
    },
    arrivals: (scope) => pendingArrivals(scope, arrivals),
    cwd: placeOf,
    price: costOf,
  };
  return {
    store,
    state,
    deps,
    mechanisms,
    settings: options.settings,
    focused,
    startSession(setup, agent = DEFAULT_AGENT) {
      focus.starting(setup.id);
      return AgentLoop.start(deps, setup, agent);
    },
    focus: (ids) => focus.focus(ids),
    openSession(id, agent) {
      const view = state.sessions.byId[id];
      if (!view) {
        if (!state.catalog.byId[id]) throw new Error(`No session "${id}" in the log`);
        throw new Error(`Session "${id}" is not in focus: focus it before opening it`);
      }
      return AgentLoop.open(deps, id, agent ?? view.mainAgent);
    },
    previewRequest(setup, agent = DEFAULT_AGENT) {
      const preview = initialState(projections, catalogProjections);
      const { id, ...data } = setup;
      evolve(
        preview,
        {
          v: 0,
          seq: 1,
          ts: options.effects.clock().toISOString(),
          type: "session.started",
          session: id,
          agent,
          data: { ...data, startedAt: options.effects.clock().toISOString() },
        },
        projections,
        "all",
        catalogProjections,
      );
      const scope = { state: preview, session: id, agent };
      return assembleRequest(preview, id, agent, deps.pool(scope), deps.sections(scope));
    },
    async readFiles(given) {
      const place = given.credentials ? given : {
        ...given,
        credentials: credentialPaths(given.home, {}),
      };
      const read = await Promise.all(mechanisms.map((m) => m.readFiles?.(place) ?? []));
      return read.flat();
    },
    findTool(name, scope = {}) {
      const session = scope.session ?? state.sessions.order.at(-1) ?? "";
      const agent = scope.agent ?? state.sessions.byId[session]?.mainAgent ?? DEFAULT_AGENT;
      return deps.pool({ state, session, agent }).byName.get(name);
    },
    async close() {
      // What runs outside the loops stops first (a job's watcher appends nothing after this).
      try {
        for (const mechanism of [...mechanisms].reverse()) await mechanism.close?.();
      } finally {
        await store.close();
      }
    },
  };
}

/** Start `state` at the catalog of a snapshot. Throws if it lacks a slice a mechanism folds. */
function startFrom(
  state: State,
  start: NonNullable<HarnessOptions["start"]>,
  catalogProjections: readonly CatalogProjection[],
): void {
  const missing = catalogProjections.find((p) => !holdsSlices(start.catalog, [p]));
  if (missing) {
    throw new StartPointError(
      `The catalog to start from holds no "${missing.key}" slice: it was folded without it`,
    );
  }
  state.catalog = start.catalog;
  state.lastSeq = start.seq;
}

/**
 * Where each agent works (see `agentCwd`: the workspace, or a folder given to a subagent), and
 * the base tools of an agent's place, made when an agent first works there.
 */
function placedTools(options: HarnessOptions): {
  placeOf: (scope: PoolScope) => string;
  baseTools: ToolSource;
} {
  const deps = {
    workspace: options.workspace,
    protectedPaths: options.protectedPaths ?? [],
    openPaths: options.openPaths ?? [],
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    readDenied: readDeniedJudge,
  };
  const placeOf = (scope: PoolScope) =>
    agentCwd(scope.state.sessions.byId[scope.session], scope.agent, options.workspace);
  const made = new Map([[options.workspace, createBaseTools(deps)]]);
  const baseTools = (scope: PoolScope) => {
    const cwd = placeOf(scope);
    let tools = made.get(cwd);
    if (tools === undefined) made.set(cwd, tools = placedBaseTools(deps, cwd));
    return tools;
  };
  return { placeOf, baseTools };
}

function checkUnique(projections: readonly Projection[], what = "projection"): void {
  const seen = new Set<string>();
  for (const { key } of projections) {
    if (seen.has(key)) throw new Error(`Two mechanisms register the ${what} "${key}"`);
    seen.add(key);
  }
}

/** The key of an agent's pool and sections (a session id and an agent name hold no newline). */
function agentKey(scope: PoolScope): string {
  return `${scope.session}\n${scope.agent}`;
}

function sameSections(a: readonly SystemSection[], b: readonly SystemSection[]): boolean {
  return a.length === b.length && a.every((section, i) => {
    const other = b[i] as SystemSection;
    return section.id === other.id && section.stability === other.stability &&
      section.text === other.text;
  });
}
