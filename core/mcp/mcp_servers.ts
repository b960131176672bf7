import type { McpServerState } from "../../events/event_types.ts";
import type { ConnectOptions } from "./_mcp_connection.ts";
import type { McpServerConfig } from "./mcp_config.ts";
import type { McpConnection } from "./mcp_connection_types.ts";
import type { ConfiguredServer, McpSetup } from "./read_mcp_config.ts";
import { spawnStdioServer } from "./_stdio_spawn.ts";
import { killGroup } from "../tools/kill_group.ts";

/** How a connection is made: the SDK's (loaded on first use), or a test's. */
export type Connect = (config: McpServerConfig, options: ConnectOptions) => Promise<McpConnection>;

/** What {@link McpServers} runs with. */
export interface McpServersOptions {
  setup: McpSetup;
  /** The folder stdio servers start in (the workspace). */
  cwd: string;
  /** The environment stdio servers start with (without rein's secrets). */
  env: Record<string, string>;
  /** `MCP_TIMEOUT`: how long the first request waits for the servers to start. */
  startupTimeoutMs: number;
  connect?: Connect;
}

/** A server's status as `/mcp` and stream-json's `init` show it. */
export type McpLiveStatus = "starting" | "connected" | "pending" | "failed" | "disabled";

/** One server as this process runs it. */
interface Running {
  server: ConfiguredServer;
  status: McpLiveStatus;
  /** The start under way (the first, or a restart), while it is. */
  opening?: Promise<void>;
  reason?: string;
  connection?: McpConnection;
  /** Restarts after it died (once at most). */
  restarts: number;
  /** Why it was restarted, once it was. */
  restartedAfter?: string;
  /** Bumped each time what it offers changes (a list_changed refetched). */
  version: number;
}

/**
 * The MCP servers of this process: each enabled server started at once, in parallel, when
 * {@link McpServers.start} is called (the session's start), restarted once if it dies, closed
 * with the harness. What they offer is read by the MCP mechanism before each model request and
 * recorded (`mcp.observed`); nothing here is read in replay.
 */
export class McpServers {
  readonly #options: McpServersOptions;
  readonly #running = new Map<string, Running>();
  #deadline: Promise<void> | undefined;
  #closed = false;
  /** Tool lists being fetched again after a server's `list_changed`. */
  readonly #refreshing = new Set<Promise<void>>();
  /** Aborted on close: servers still starting are stopped. */
  readonly #closing = new AbortController();
  #connect: Promise<Connect> | undefined;

  constructor(options: McpServersOptions) {
    this.#options = options;
    for (const server of options.setup.servers) this.#track(server);
  }

  /** `server` as this process runs it, not started yet. */
  #track(server: ConfiguredServer): Running {
    const run: Running = {
      server,
      status: server.entry.enabled ? "starting" : "disabled",
      ...(server.entry.reason ? { reason: server.entry.reason } : {}),
      restarts: 0,
      version: 0,
    };
    this.#running.set(server.entry.name, run);
    return run;
  }

  /**
   * Resolves once every start of `starts` ended, or `MCP_TIMEOUT` later: then each of `runs`
   * still starting is pending. With no start to wait for, no timer is set (a process's first
   * timer loads Node's timers module: milliseconds of a start that has no server).
   */
  #within(starts: readonly Promise<void>[], runs: Iterable<Running>): Promise<void> {
    if (starts.length === 0) return Promise.resolve();
    const ms = this.#options.startupTimeoutMs;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      Promise.allSettled(starts).then(() => {
        clearTimeout(timer);
        resolve();
      });
    }).then(() => {
      for (const run of runs) {
        if (run.status !== "starting") continue;
        run.status = "pending";
        run.reason = `not up after ${
          Math.round(ms / 1000)
        } s (MCP_TIMEOUT); its tools join when it is`;
      }
    });
  }

  /** The configuration read at start. */
  get setup(): McpSetup {
    return this.#options.setup;
  }

  /** Whether any server is to run. */
  get any(): boolean {
    return this.#options.setup.servers.some((s) => s.entry.enabled);
  }

  /** Whether {@link McpServers.start} was called (a teammate's process starts them later). */
  get isStarted(): boolean {
    return this.#deadline !== undefined;
  }

  /** The folder stdio servers start in (the workspace). */
  get workspace(): string {
    return this.#options.cwd;
  }

  /** A variable of the servers' environment (what `${VAR}` in an entry expands to). */
  envOf(name: string): string | undefined {
    return this.#options.env[name];
  }

  /** Add a problem with the configuration (recorded with the next `mcp.configured`). */
  report(problem: string): void {
    if (!this.#options.setup.problems.includes(problem)) this.#options.setup.problems.push(problem);
  }

  /** Whether a server of that name is configured in this process. */
  has(name: string): boolean {
    return this.#running.has(name);
  }

  /**
   * Before the start (a teammate's process): keep only the servers `names` names (all when
   * undefined), then add `inline` (an agent definition's own servers; one of the same name
   * replaces the configured one).
   */
  narrow(names: readonly string[] | undefined, inline: readonly ConfiguredServer[]): void {
    if (this.#deadline) throw new Error("The MCP servers have started already");
    const kept = names === undefined ? undefined : new Set(names);
    const replaced = new Set(inline.map((server) => server.entry.name));
    const setup = this.#options.setup;
    setup.servers = [
      ...setup.servers.filter((server) =>
        (kept === undefined || kept.has(server.entry.name)) && !replaced.has(server.entry.name)
      ),
      ...inline,
    ];
    this.#running.clear();
    for (const server of setup.servers) this.#track(server);
  }

  /**
   * Add servers after the start (a subagent's inline servers) and start the enabled ones now;
   * resolves once each is up or failed, or `MCP_TIMEOUT` later (then it is pending).
   */
  async add(servers: readonly ConfiguredServer[]): Promise<void> {
    const setup = this.#options.setup;
    const opening: Promise<void>[] = [];
    const added: Running[] = [];
    for (const server of servers) {
      if (this.#running.has(server.entry.name)) continue;
      setup.servers.push(server);
      const run = this.#track(server);
      added.push(run);
      if (run.status === "starting") opening.push(this.#opened(run));
    }
    if (opening.length === 0) return;
    await this.#within(opening, added);
  }

  /** Start every enabled server, at once (idempotent). */
  start(): void {
    if (this.#deadline) return;
    const runs = [...this.#running.values()].filter((run) => run.status === "starting");
    this.#deadline = this.#within(runs.map((run) => this.#opened(run)), runs);
  }

  /** Resolves once every enabled server is up or failed, or `MCP_TIMEOUT` after the start. */
  started(): Promise<void> {
    this.start();
    return this.#deadline as Promise<void>;
  }

  /** Each server's status now, in configuration order. */
  statuses(): { name: string; status: McpLiveStatus; reason?: string; tools: number }[] {
    return [...this.#running.values()].map((run) => ({
      name: run.server.entry.name,
      status: run.status,
      ...(run.reason ? { reason: run.reason } : {}),
      tools: run.connection?.tools.length ?? 0,
    }));
  }

  /**
   * What each enabled server offers now, as a session records it: connected (with its lists),
   * pending, or failed; a server still starting before the start's deadline is left out.
   */
  states(): McpServerState[] {
    const states: McpServerState[] = [];
    for (const run of this.#running.values()) {
      const name = run.server.entry.name;
      if (run.status === "connected" && run.connection) {
        const { tools, prompts, resources, instructions } = run.connection;
        states.push({
          name,
          status: "connected",
          ...(run.restartedAfter ? { reason: `restarted after ${run.restartedAfter}` } : {}),
          tools,
          ...(prompts.length > 0 ? { prompts } : {}),
          ...(resources ? { resources } : {}),
          ...(instructions ? { instructions } : {}),
        });
      } else if (run.status === "pending" || run.status === "failed") {
        states.push({ name, status: run.status, reason: run.reason ?? "" });
      }
    }
    return states;
  }

  /** The connection to `name`, when it is up. */
  connection(name: string): McpConnection | undefined {
    const run = this.#running.get(name);
    return run?.status === "connected" ? run.connection : undefined;
  }

  /**
   * The connection to `name` once it is up: now, or when a start under way (a restart after it
   * died) ends, waiting at most `MCP_TIMEOUT`; undefined if it does not come up.
   */
  async ready(name: string, signal: AbortSignal): Promise<McpConnection | undefined> {
    const run = this.#running.get(name);
    if (run?.opening && run.status === "starting") {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const aborted = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.#options.startupTimeoutMs);
        signal.addEventListener("abort", () => resolve(), { once: true });
      });
      await Promise.race([run.opening, aborted]);
      clearTimeout(timer);
    }
    return this.connection(name);
  }

  /** The per-call timeout `name`'s entry sets (`timeout`, ms), if it sets one. */
  timeoutOf(name: string): number | undefined {
    return this.#running.get(name)?.server.config.timeout;
  }

  /** Why `name` is not connected (for a call's error). */
  whyNot(name: string): string {
    const run = this.#running.get(name);
    if (!run) return `no MCP server "${name}" runs in this process`;
    return `MCP server "${name}" is ${run.status}${run.reason ? `: ${run.reason}` : ""}`;
  }

  /** Close every server (stdio servers killed with their process group). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#closing.abort();
    await Promise.all(
      [...this.#running.values()].map((run) => run.connection?.close().catch(() => {})),
    );
  }

  /** Start `run`, kept as its `opening` while it starts. */
  #opened(run: Running): Promise<void> {
    const opening = this.#open(run).finally(() => {
      if (run.opening === opening) delete run.opening;
    });
    run.opening = opening;
    return opening;
  }

  async #open(run: Running): Promise<void> {
    const name = run.server.entry.name;
    const { config } = run.server;
    // A stdio server starts now, while the MCP client loads (the first start's import is most of
    // what rein adds to a server's start); one that cannot be spawned so is left to the
    // transport, which says why.
    let child: Deno.ChildProcess | undefined;
    if (config.type === "stdio" && this.#options.connect === undefined) {
      try {
        child = spawnStdioServer(config, this.#options.cwd, this.#options.env);
      } catch {
        child = undefined;
      }
    }
    let taken = false;
    try {
      const connect = await (this.#connect ??= this.#options.connect
        ? Promise.resolve(this.#options.connect)
        : loadMcpClient());
      let made: McpConnection | undefined;
      taken = true;
      const connection = made = await connect(config, {
        cwd: this.#options.cwd,
        env: this.#options.env,
        onToolsChanged: () =>
          this.#refresh(run),
        onLost: (reason) => made && this.#lost(run, made, reason),
        signal: this.#closing.signal,
        ...(child === undefined ? {} : { child }),
      });
      if (this.#closed) {
        await connection.close();
        return;
      }
      run.connection = connection;
      run.status = "connected";
      delete run.reason;
    } catch (error) {
      // A process its transport never took (the client did not load) is stopped here.
      if (child !== undefined && !taken) await killGroup(child.pid).catch(() => false);
      if (this.#closed) return;
      run.status = "failed";
      run.reason = `${name} did not start: ${error instanceof Error ? error.message : error}`;
    }
  }

  #lost(run: Running, connection: McpConnection, reason: string): void {
    if (this.#closed || run.connection !== connection) return;
    delete run.connection;
    run.status = "failed";
    run.reason = reason;
    if (run.restarts >= 1) return;
    run.restarts += 1;
    run.restartedAfter = reason;
    run.status = "starting";
    this.#opened(run).then(() => {
      if (run.status === "failed") run.reason = `${reason}; restarted once, ${run.reason}`;
    });
  }

  #refresh(run: Running): void {
    const connection = run.connection;
    if (!connection) return;
    const refreshing = connection.listTools().then(
      (tools) => {
        connection.tools = tools;
        run.version += 1;
      },
      // A failed refresh keeps the previous list, as Claude Code does.
      () => {},
    ).finally(() => this.#refreshing.delete(refreshing));
    this.#refreshing.add(refreshing);
  }

  /**
   * Resolves once the tool lists being fetched again (a server said its list changed) are in:
   * what the next request is told of is the list as it is after a call that changed it.
   */
  async refreshed(): Promise<void> {
    while (this.#refreshing.size > 0) await Promise.all(this.#refreshing);
  }
}

/**
 * The MCP servers a harness's effects carry (`HarnessEffects.mcp`), for what runs outside the
 * loops (a prompt's slash command); undefined in replay and where none is configured.
 */
export function mcpServersOf(effects: object): McpServers | undefined {
  const mcp = "mcp" in effects ? effects.mcp : undefined;
  const servers = typeof mcp === "object" && mcp !== null && "servers" in mcp
    ? mcp.servers
    : undefined;
  return servers instanceof McpServers ? servers : undefined;
}

let client: Promise<Connect> | undefined;

/**
 * The MCP client (the SDK), imported once, when the first server starts. Not earlier: its load
 * (about 0.35 s of CPU) on the main thread while rein opens delayed the session's start more than
 * it saved (measured: the first request 0.5 to 1 s later with it loaded as the configuration was
 * read); the servers' processes are spawned before it, so their start overlaps it.
 */
function loadMcpClient(): Promise<Connect> {
  client ??= import("./_mcp_connection.ts").then((module) => module.connectMcp);
  return client;
}
