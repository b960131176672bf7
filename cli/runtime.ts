import { resolve } from "../events/posix_path.ts";
import { unusedSettingsNotice } from "../core/settings/unused_settings.ts";
import { type JsonlStore, openJsonlStore } from "../events/jsonl_store.ts";
import type { Leases, LogReader } from "../events/store.ts";
import { StartPointError } from "../events/start_point.ts";
import {
  createHarness,
  type Harness,
  type HarnessOptions,
  reinCatalogProjections,
  reinFeatures,
} from "../core/harness.ts";
import {
  type CatalogStart,
  catalogToStartFrom,
  extendIndex,
  latestCatalog,
  loadSessions,
  type LogIndex,
  startSnapshots,
} from "../core/snapshots/mod.ts";
import { liveEffects } from "../core/runner/live_effects.ts";
import { loadTimersNow } from "./_load_timers.ts";
import { DEFAULT_RETRY_POLICY, retryPolicyFromEnv } from "../core/recovery/retry.ts";
import { loadSettings } from "../core/settings/load_settings.ts";
import type { PermissionFlags, RecordedFile, SettingsSnapshot } from "../events/event_types.ts";
import type { PermissionAsker } from "../core/permissions/permissions_mechanism.ts";
import { permissionPolicy } from "../core/permissions/policy.ts";
import { credentialPaths, type SandboxSettings, sandboxSettings } from "../core/sandbox/mod.ts";
import {
  isPersonal,
  type RecordedSettings,
  recordedSettings,
} from "../core/settings/recorded_settings.ts";
import { sandboxForRun } from "./_sandbox_probe.ts";
import { settingsSnapshot } from "../core/runner/settings_snapshot.ts";
import { exportSettingsEnv } from "../core/tools/command_env.ts";
import { claudeJsonPath } from "../core/settings/trust.ts";
import { decideTrust } from "./_trust.ts";
import { DEFAULT_MEMORY_DIRECTORY } from "../core/memory/memory_files.ts";
import { foldError } from "./fold.ts";
import { ignoreLogDirectory, type RuntimeEnv } from "./paths.ts";
import { secretValues, storePassword } from "./secrets.ts";
import { cronTickMs, wallClock } from "./clock.ts";
import { thisMachine } from "./machine.ts";
import { usedPlugins } from "./_plugins.ts";
import { REIN_VERSION } from "./version.ts";
import { TeammateProcesses } from "./teammate_processes.ts";
import { LEASE_MS_ENV, leaseMsOf } from "./lease_ms.ts";
import { loadStoreSessions, openStoreSnapshots } from "./store_sessions.ts";
import type { PostgresStore } from "../events/postgres/postgres_store.ts";
import type { PluginRoot } from "../core/plugins/plugin_root.ts";
import {
  mcpApprovals,
  type McpFiles,
  mcpLimits,
  McpServers,
  mcpSetup,
  readMcpFiles,
  rememberMcpChoice,
  unapprovedServers,
} from "../core/mcp/mod.ts";
import { askMcpOnTerminal } from "./_mcp_approval.ts";

/** A live harness on a workspace's log, as the CLI opens it. */
export interface Runtime {
  workspace: string;
  logPath: string;
  harness: Harness;
  /** The settings as read at start, recorded by every session this process starts or resumes. */
  settings: SettingsSnapshot;
  /** The mechanisms' files as read at start (CLAUDE.md, skills, agents), recorded likewise. */
  files: RecordedFile[];
  /** Asks the person about a call; the REPL sets it, headless runs leave it unset. */
  asker: { current?: PermissionAsker };
  /** Attempts per model request, for the retry line. */
  maxAttempts: number;
  /** The wall clock rein runs on (a test's, see cli/clock.ts). */
  clock: () => Date;
  /** How often cron jobs are checked, in milliseconds. */
  cronTickMs: number;
  /**
   * This machine's id (see core/effects/machine_key.ts), recorded in `settings`; null when it has
   * no key (one could not be made).
   */
  machine: string | null;
  /** Says something to the person (stderr), as the runtime's own notices. */
  notice?: (message: string) => void;
  /** The plugins the sessions use (`--plugin-dir`), in order, with where each came from. */
  plugins?: readonly PluginRoot[];
  /** The MCP servers this process runs (`/mcp`, stream-json's `init`); absent when none is configured. */
  mcp?: McpServers;
  /** Where sessions are leased: a PostgreSQL store's lease rows; unset: lock files beside the log. */
  leases?: Leases;
  close(): Promise<void>;
}

/**
 * Open a live harness. The settings files are read and the log directory is checked first, then
 * the model SDK starts loading in the background, and the log is opened and folded as soon as
 * the settings are in; only the first model request waits for the SDK. Start-up is bound by the
 * CPU (loading modules), not by these few reads, so what matters is that none of them waits for
 * another to be issued. Settings diagnostics are reported through `onNotice`.
 */
export async function openRuntime(options: {
  workspace: string;
  logPath: string;
  /**
   * A PostgreSQL store (`postgres://…`) holding the log instead of the file at `logPath`; read
   * from this machine's newest snapshot in its snapshot table that holds (else its first event).
   */
  store?: string;
  env: RuntimeEnv;
  onNotice: (message: string) => void;
  /** `--settings FILE`. */
  settingsFile?: string | undefined;
  /** `--setting-sources`: which settings files to read (every one when undefined). */
  settingSources?: readonly ("user" | "project" | "local")[] | undefined;
  permissionFlags?: PermissionFlags;
  /** Whether a person can be asked about calls (the REPL). */
  interactive?: boolean;
  /**
   * A teammate's process (`rein teammate`): its bash sees only what it needs of the machine, not
   * the person's home nor other folders (core/sandbox's `confined`); the lead's sees the root.
   */
  teammate?: boolean;
  /** `--trust`: apply the repository's own settings without asking (see cli/_trust.ts). */
  trust?: boolean | undefined;
  /** Asks the person whether to trust the workspace (the REPL in a terminal). */
  askTrust?: ((what: string) => Promise<boolean>) | undefined;
  /** `--plugin-dir DIR`s, resolved: Claude Code plugin folders the sessions use, in order. */
  pluginDirs?: readonly string[] | undefined;
  /** `--mcp-config` values (files or JSON), in order. */
  mcpConfig?: readonly string[] | undefined;
  /** `--strict-mcp-config`: only the `--mcp-config` servers. */
  strictMcpConfig?: boolean | undefined;
}): Promise<Runtime> {
  const { workspace, env, logPath } = options;
  const home = env.get("HOME");
  const settings = loadSettings({
    workspace,
    home,
    cliFile: options.settingsFile,
    sources: options.settingSources,
  }).then(
    (loaded) => {
      const fatal = loaded.diagnostics.filter((d) => d.fatal);
      if (fatal.length > 0) throw new Error(fatal.map((d) => d.message).join("\n"));
      return loaded;
    },
  );
  const ignored = ignoreLogDirectory(logPath, workspace);
  // The MCP configuration files, read while the settings are (trust decides what starts later).
  const mcpFiles = readMcpFiles({
    workspace,
    claudeJson: claudeJsonPath(home, env.get("CLAUDE_CONFIG_DIR")),
    mcpConfig: options.mcpConfig ?? [],
    strict: options.strictMcpConfig === true,
    cwd: Deno.cwd(),
  });
  const machine = thisMachine(env, options.onNotice);
  // The catalog as of the newest snapshot that holds (taken now if the log is long past it): the
  // store reads from there on. A log that cannot be read is left for the store to report.
  // A PostgreSQL log's are in its snapshot table, this machine's own (none without a machine key).
  const storeSnapshots = options.store === undefined
    ? undefined
    : machine.then((id) => id === null ? undefined : openStoreSnapshots(options.store!, id)).catch(
      () => undefined,
    );
  const logSnapshot = storeSnapshots !== undefined
    ? storeSnapshots.then((found) =>
      found && latestCatalog(found.place, Infinity, reinCatalogProjections())
    ).catch(() => undefined)
    : catalogToStartFrom(logPath, reinCatalogProjections()).catch(() => undefined);
  // The files above are read by Deno's threads meanwhile.
  loadTimersNow();
  const retry = retryPolicyFromEnv((name) => env.get(name));
  const clock = wallClock(env);
  const teammates = new TeammateProcesses({
    workspace,
    logPath,
    store: options.store,
    env: env.toObject(),
    cwd: Deno.cwd(),
    clock,
    // Its teammates read the MCP servers it does (their definitions then choose among them).
    mcpConfig: (options.mcpConfig ?? []).map((given) =>
      given.trimStart().startsWith("{") ? given : resolve(Deno.cwd(), given)
    ),
    strictMcpConfig: options.strictMcpConfig === true,
    trust: options.trust === true,
    // A lead's process keeps a warm spare teammate process; a teammate's spawns none.
    spare: options.teammate !== true,
    onNotice: options.onNotice,
  });
  const effects = {
    ...liveEffects({
      apiKey: env.get("ANTHROPIC_API_KEY"),
      authToken: env.get("ANTHROPIC_AUTH_TOKEN"),
      baseURL: env.get("ANTHROPIC_BASE_URL"),
      retry,
    }),
    clock,
    // The lead's teammates, each in a process of its own (bound to the harness once it is open).
    teammates: teammates.options(),
  };
  const [loaded, , machineId] = await Promise.all([settings, ignored, machine]);
  const trusted = await decideTrust({
    workspace,
    claudeJson: claudeJsonPath(home, env.get("CLAUDE_CONFIG_DIR")),
    sources: loaded.items.sources,
    flag: options.trust === true,
    ask: options.askTrust,
    onNotice: options.onNotice,
  });
  // The plugins the person gave (--plugin-dir): theirs, so their hooks run as the person's do.
  const credentials = credentialPaths(home, env.toObject());
  const plugins = await usedPlugins(options.pluginDirs ?? [], {
    workspace,
    home,
    credentials,
    onNotice: options.onNotice,
    // And those the settings enable (an untrusted folder's own settings enable none).
    settings: { sources: loaded.items.sources, trusted, env: (name) => env.get(name) },
  });
  // Every Claude Code setting and file rein does not use, named once, in one line (a folder's
  // .mcp.json is used: core/mcp; a plugin's is not yet).
  const unused = unusedSettingsNotice(loaded.items.sources, plugins.unusedFiles);
  if (unused !== undefined) options.onNotice(unused);
  // The snapshot sessions record; parsed once (recordedSettings caches by this object).
  const snapshot = settingsSnapshot({
    sources: [...loaded.items.sources, ...plugins.hooks],
    ...(options.permissionFlags ? { flags: options.permissionFlags } : {}),
    home,
    interactive: options.interactive ?? false,
    env: (name) => env.get(name),
    machine: machineId,
    features: reinFeatures(),
    onNotice: options.onNotice,
    trusted,
  });
  const recorded = recordedSettings(snapshot);
  // What the settings' `env` sets (the person's, and a trusted repository's) reaches every
  // command rein starts (bash, hooks), as in Claude Code.
  const settingsEnv = recorded.settings.env ?? {};
  exportSettingsEnv(settingsEnv);
  // MCP servers start now, in parallel, while the rest opens (the SDK is loaded only when one is
  // configured); a repository's own servers only in a trusted folder.
  const mcp = await startMcp(options, await mcpFiles, { trusted, settingsEnv, recorded });
  const sandboxConfig = sandboxOf(recorded);
  for (const message of sandboxConfig.diagnostics) options.onNotice(message);
  // Resolved while the log opens and folds; bwrap itself is probed when a command first needs
  // it (on a machine's first run, now).
  const probing = sandboxForRun(
    {
      settings: sandboxConfig.items,
      workspace,
      readOnly: [
        resolve(logPath, ".."),
        ...sandboxConfig.items.enabled ? await existing(guardedPaths(workspace)) : [],
      ],
      additionalDirectories: recorded.additionalDirectories,
      confined: options.teammate === true,
      home,
      env: env.toObject(),
    },
    env.get("TMPDIR") || "/tmp",
    options.onNotice,
  );
  const asker: Runtime["asker"] = {};
  let store: JsonlStore | undefined;
  let leases: Leases | undefined;
  /** The PostgreSQL store's log, read to load a session (it has no file). */
  let reader: LogReader | undefined;
  let database: PostgresStore | undefined;
  const tableSnapshots = await storeSnapshots;
  let start = await logSnapshot;
  /** Places to start reading the log from, to load a session: the snapshot's, then ours. */
  let index: LogIndex = [...start?.index ?? []];
  const open =
    (from: CatalogStart | undefined): HarnessOptions["openStore"] =>
    async (onEvent, { eventTypes }) => {
      if (options.store !== undefined) {
        const { openPostgresStore } = await import("../events/postgres/postgres_store.ts");
        const opened = await openPostgresStore(options.store, {
          eventTypes,
          clock,
          secrets: [...secretValues(env, options.onNotice), ...storePassword(options.store)],
          onEvent,
          onNotice: options.onNotice,
          leaseMs: leaseMsOf(env.get(LEASE_MS_ENV)),
          ...(from ? { start: from.point } : {}),
        });
        leases = reader = database = opened;
        return opened;
      }
      return store = await openJsonlStore(logPath, {
        eventTypes,
        clock,
        secrets: secretValues(env, options.onNotice),
        onEvent,
        onNotice: options.onNotice,
        onProgress: (at) => extendIndex(index, at),
        ...(from ? { start: from.point } : {}),
      });
    };
  const wiring: Omit<HarnessOptions, "openStore"> = {
    // A new session needs no other session in full; a resumed one is focused when chosen.
    focus: [],
    loadSessions: (request) =>
      reader === undefined
        ? loadSessions(logPath, { ...request, index })
        : loadStoreSessions(reader, request, tableSnapshots?.place),
    workspace,
    // rein's own folders, closed to the file tools: the log's (snapshots, jobs' output, catalogs,
    // leases) and the workspace's `.rein/`, and the log itself (kept closed where its folder holds
    // the workspace). The agent keeps its memory there (`.rein/memory/`), open to its file tools.
    protectedPaths: [logPath, resolve(logPath, ".."), resolve(workspace, ".rein")],
    openPaths: [resolve(workspace, DEFAULT_MEMORY_DIRECTORY)],
    effects: mcp
      ? { ...effects, mcp: { servers: mcp, limits: mcpLimits((name) => env.get(name)) } }
      : effects,
    settings: recorded.settings,
    // Asked for by the first bash call, not before.
    sandbox: {
      then: (onValue, onError) =>
        probing.then((probed) => probed.confirmed, () => undefined).then(onValue, onError),
    },
    transcriptPath: logPath,
    transcriptVersion: REIN_VERSION,
    // Hooks are the person's own or a trusted repository's: they run as the person, with the
    // whole environment, as Claude Code runs them (the agent's bash gets it without secrets).
    hookEnv: { ...env.toObject(), ...settingsEnv },
    ask: (question, signal) => {
      if (asker.current === undefined) throw new Error("No one to ask about a call");
      return asker.current(question, signal);
    },
    foldError: (error, event) => foldError(logPath, error, event),
  };
  const harness = await createHarness({
    ...wiring,
    openStore: open(start),
    ...(start ? { start: { catalog: start.catalog, seq: start.point.seq } } : {}),
  }).catch((error) => {
    // The log changed between the snapshot's check and the store's: fold it from the start.
    if (!(error instanceof StartPointError)) throw error;
    start = undefined;
    index = [];
    return createHarness({ ...wiring, openStore: open(undefined) });
  });
  teammates.bind(harness, leases);
  const snapshotStore = store ?? (tableSnapshots ? database : undefined);
  const snapshots = snapshotStore === undefined
    ? { close: () => Promise.resolve() }
    : startSnapshots({
      logPath: database?.location.display ?? logPath,
      ...(store === undefined && tableSnapshots ? { place: tableSnapshots.place } : {}),
      store: snapshotStore,
      state: harness.state,
      focused: harness.focused,
      projections: harness.mechanisms.flatMap((m) => m.projection ? [m.projection] : []),
      clock,
      startSeq: start?.point.seq ?? 0,
      index,
      onNotice: options.onNotice,
    });
  const close = async () => {
    await snapshots.close();
    await harness.close();
    await tableSnapshots?.close().catch(() => {});
  };
  // Read while the sandbox is resolved (the credential probe runs a command): neither needs the
  // other. readFiles reports bad files and never throws.
  const files = harness.readFiles({
    workspace,
    home,
    credentials,
    plugins: plugins.plugins,
    ...(options.settingSources === undefined ? {} : { sources: options.settingSources }),
    onNotice: options.onNotice,
  });
  files.catch(() => {});
  const { resolution: sandbox } = await probing.catch(async (error) => {
    await close();
    throw error;
  });
  if (!sandbox.ok) {
    await close();
    throw sandbox.error;
  }
  if (sandbox.notice) options.onNotice(sandbox.notice);
  if (sandbox.sandbox) snapshot.sandbox = sandbox.sandbox.description;
  // Rules are checked as the sessions will read them: one bad rule is reported, the rest hold.
  for (const message of permissionPolicy(snapshot, workspace).diagnostics) {
    options.onNotice(message);
  }
  const maxAttempts = retry.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts;
  return {
    workspace,
    logPath,
    harness,
    settings: snapshot,
    files: await files,
    plugins: plugins.plugins,
    ...(mcp ? { mcp } : {}),
    asker,
    maxAttempts,
    clock,
    cronTickMs: cronTickMs(env),
    machine: machineId,
    notice: options.onNotice,
    ...(leases === undefined ? {} : { leases }),
    close,
  };
}

/**
 * The MCP servers of the run (see `readMcpConfig`), started at once (a teammate's once its
 * definition is known); none may be configured. Problems with the configuration are reported, and
 * the other servers still start.
 */
async function startMcp(
  options: Parameters<typeof openRuntime>[0],
  files: McpFiles,
  read: {
    trusted: boolean;
    settingsEnv: Record<string, string>;
    recorded: RecordedSettings;
  },
): Promise<McpServers> {
  const { env } = options;
  const other = read.recorded.settings.other ?? {};
  const disabled = other["disabledMcpjsonServers"];
  const setup = mcpSetup(files, {
    trusted: read.trusted,
    disabled: Array.isArray(disabled) ? disabled.filter((n) => typeof n === "string") : [],
    env: (name) => read.settingsEnv[name] ?? env.get(name),
  });
  for (const problem of setup.problems) options.onNotice(problem);
  // Kept even when none is configured: an agent definition's inline servers join it (core/mcp's
  // prepareAgentServers); it starts nothing then, and the MCP SDK is not loaded.
  // In the REPL, each project server nobody approved yet is asked about once (remembered in
  // ~/.claude.json, as Claude Code does); headless runs start them, as claude -p does.
  if (options.askTrust !== undefined && files.claudeJsonPath !== undefined) {
    const ask = askMcpOnTerminal((text) => Deno.stdout.writeSync(new TextEncoder().encode(text)));
    for (const name of unapprovedServers(setup, mcpApprovals(files, other))) {
      const server = setup.servers.find((s) => s.entry.name === name);
      if (server === undefined) continue;
      const approved = await ask(name, server.entry.target);
      await rememberMcpChoice(files.claudeJsonPath, options.workspace, name, approved).catch(
        (error) =>
          options.onNotice(`Cannot remember the answer about MCP server "${name}": ${error}`),
      );
      if (!approved) {
        server.entry.enabled = false;
        server.entry.reason = "not approved (disabledMcpjsonServers)";
      }
    }
  }
  // Servers run as the person's own programs, with their environment less rein's API secrets.
  const serverEnv: Record<string, string> = {
    ...env.toObject(),
    ...read.settingsEnv,
    CLAUDE_PROJECT_DIR: options.workspace,
  };
  for (const name of ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"]) delete serverEnv[name];
  const timeout = Number(env.get("MCP_TIMEOUT"));
  const servers = new McpServers({
    setup,
    cwd: options.workspace,
    env: serverEnv,
    startupTimeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 30_000,
  });
  if (options.teammate !== true) servers.start();
  return servers;
}

/**
 * What bash may not change in the workspace although it is writable: the settings that decide
 * what the agent may do (edited through the file tools, which always ask first). The sandbox
 * guards git's hooks and configuration itself (core/sandbox's `gitDirMounts`).
 */
function guardedPaths(workspace: string): string[] {
  return [resolve(workspace, ".claude")];
}

/**
 * The guarded paths to mount read-only: those that exist, and `.claude/`, created when missing so
 * that a command cannot create it (and settings in it) for the next session.
 */
async function existing(paths: readonly string[]): Promise<string[]> {
  const [claude] = paths;
  if (claude !== undefined) await Deno.mkdir(claude, { recursive: true }).catch(() => {});
  const found = await Promise.all(
    paths.map((path) => Deno.stat(path).then(() => path, () => undefined)),
  );
  return found.filter((path): path is string => path !== undefined);
}

/**
 * The sandbox settings: the person's own files (`~/.claude`, `--settings`) decide; a repository's
 * files may only tighten them (no network, required), never turn the sandbox off.
 */
function sandboxOf(recorded: RecordedSettings): { items: SandboxSettings; diagnostics: string[] } {
  const personal = recorded.files.find((f) =>
    isPersonal(f.scope) && "sandbox" in (f.settings.other ?? {})
  );
  const own = sandboxSettings(personal?.settings.other?.["sandbox"]);
  const items = { ...own.items };
  const diagnostics = [...own.diagnostics];
  for (const file of recorded.files) {
    if (isPersonal(file.scope) || !("sandbox" in (file.settings.other ?? {}))) continue;
    const theirs = sandboxSettings(file.settings.other?.["sandbox"]);
    diagnostics.push(...theirs.diagnostics);
    if (!theirs.items.network) items.network = false;
    if (theirs.items.required) items.required = true;
    if (!theirs.items.enabled) {
      diagnostics.push(
        `Ignored "sandbox.enabled": false in "${file.path}": only your own settings ` +
          "(~/.claude/settings.json or --settings) may turn the sandbox off",
      );
    }
  }
  return { items, diagnostics };
}
