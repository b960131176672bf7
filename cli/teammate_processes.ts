import { dirname } from "../events/posix_path.ts";
import type { NewEvent } from "../events/event_types.ts";
import type { Leases } from "../events/store.ts";
import type { Harness } from "../core/harness.ts";
import {
  HOST_AGENT,
  insideFolder,
  isLive,
  liveTeammates,
  lostTeammates,
  planRestart,
  rosterKey,
  rosterOf,
  type TeamOptions,
} from "../core/team/mod.ts";
import { MAX_LIVE_TEAMMATES } from "../core/team/spawn_teammate.ts";
import { planLaunch } from "./_launch_plan.ts";
import { agentCwd } from "../core/state/agent_place.ts";
import { mainAgentOf } from "../core/state/sessions.ts";
import { RELAUNCH_EXIT_CODE, teammateFlags } from "./_teammate_flags.ts";
import { LEASE_MS_ENV, leaseMsOf } from "./lease_ms.ts";
import { recordedSettings } from "../core/settings/recorded_settings.ts";
import {
  Spare,
  SPARE_NAME,
  spareCount,
  spareSetting,
  type TeammateLaunch,
} from "./teammate_spare.ts";

/** How long a teammate asked to stop (SIGTERM) has before it is killed. */
const STOP_GRACE_MS = 2_000;

/** Spares that may end before they are taken before this process starts no more. */
const SPARE_DEATHS = 3;

/** Where the lead's process runs: what its teammates' processes are started with. */
export interface TeammateHost {
  workspace: string;
  logPath: string;
  /**
   * The lead's PostgreSQL store (`postgres://…`), when its log is there: its teammates open the
   * same one, given it in their environment (`REIN_STORE`), never their argv (it may hold a
   * password), and reach its host only.
   */
  store?: string | undefined;
  /** The lead's environment, which its teammates inherit. */
  env: Readonly<Record<string, string>>;
  cwd: string;
  clock: () => Date;
  /**
   * The lead's `--mcp-config` values (files made absolute) and `--strict-mcp-config`: a teammate
   * reads the servers the lead does (core/mcp then keeps those its definition names).
   */
  mcpConfig?: readonly string[] | undefined;
  strictMcpConfig?: boolean | undefined;
  /** The lead's `--trust`: its teammates trust the folder as it does (.mcp.json, agents' servers). */
  trust?: boolean | undefined;
  /**
   * Whether this process may keep warm spare teammate processes (cli/teammate_spare.ts): a lead's
   * may (how many: `REIN_TEAMMATE_SPARE`, or `"teams": {"spare": N | false}` in the person's
   * settings or a trusted repository's), a teammate's never (it spawns none).
   */
  spare?: boolean;
  /** Told once what is wrong with how many spares the environment or settings say to keep. */
  onNotice?: ((message: string) => void) | undefined;
  /**
   * This process is `rein host` of that name: it runs the teammates placed on it, each in
   * `workspace` (its working copy) or a folder inside it, never elsewhere, whatever the log says.
   */
  placed?: string;
}

/** A teammate process this one started, and whether it was asked to stop. */
interface Running {
  child: Deno.ChildProcess;
  stopping: boolean;
  /** The folder it was started in (its place in the log then). */
  cwd: string;
}

/**
 * The lead's process's teammates, each `rein teammate --session S --agent NAME` in a process of
 * its own, started through the launcher's plan (cli/_launch_plan.ts) with its flags narrowed
 * (`teammateFlags`) under `setpriv --pdeathsig SIGKILL` (it dies with the lead), and recorded
 * (`agent.started {process: {pid, flags}, restart}`). A teammate whose process exits unexpectedly
 * is recorded (`agent.exited {code, signal}`) and started again while its restart budget lasts
 * (`planRestart`: 3 in 10 minutes), then recorded crashed (`agent.stopped {reason: "crashed"}`).
 * A teammate whose `agent.stopped` is in the log is not started again. `stopAll` (the team
 * mechanism's `close`) stops every one.
 *
 * A lead's process keeps warm spares (cli/teammate_spare.ts; three unless told otherwise:
 * `spareCount`), a burst's worth: a lead spawns its team in one answer, and each spawn of it takes
 * one. The first is started when the lead of a session that may spawn (`spawn_teammate` is in its
 * pool: teams are on) sends a model request (it waits for the model, which may answer with
 * spawns), each next one once the one before it is warm while the lead still waits: one loads at a
 * time, and none starts while a teammate of this process is starting (until it has made its first
 * request) or when the live teammates and the spares would be more than
 * {@link MAX_LIVE_TEAMMATES}: a spare never competes for the CPU with the lead's own start nor a
 * teammate's, nor starts while only teammates work (a `-p` run's end). A teammate whose launch is
 * exactly a spare's but for its name (flags, folder, environment) is that spare (a warm one
 * first), given its identity before its `agent.started` is recorded; any other starts cold. A
 * spare is no teammate (not in the log, the roster or the cap) and dies with this process.
 */
export class TeammateProcesses {
  readonly #host: TeammateHost;
  #harness: Harness | undefined;
  #leases: Leases | undefined;
  readonly #running = new Map<string, Running>();
  #closed = false;
  /** A lead's look at its remote teammates' hosts, each third of a lease's life. */
  #hostWatch: ReturnType<typeof setInterval> | undefined;
  #checkingHosts = false;
  /** The spares started and not taken (nor let go): at most one of them is not warm yet. */
  #spares: Spare[] = [];
  /** Spares that ended before they were taken. */
  #spareDeaths = 0;
  /** Whether what was wrong with the number of spares to keep has been told. */
  #spareCountTold = false;
  /** Teammates started (their keys) that have not made their first model request yet. */
  readonly #starting = new Set<string>();

  constructor(host: TeammateHost) {
    this.#host = host;
  }

  /**
   * The harness whose log the teammates are recorded in, once it is open, and where its sessions
   * are leased (a PostgreSQL store's rows: what tells which hosts are live).
   */
  bind(harness: Harness, leases?: Leases): void {
    this.#harness = harness;
    this.#leases = leases;
    // A lead's process (a teammate's spawns none, a host's are its own).
    if (this.#host.spare === true && leases?.holder !== undefined) {
      const ms = Math.max(100, Math.floor(leaseMsOf(this.#host.env[LEASE_MS_ENV]) / 3));
      this.#hostWatch = setInterval(() => void this.#checkHosts(), ms);
      Deno.unrefTimer(this.#hostWatch as unknown as number);
    }
    // A teammate stopped in the log (a forced shutdown the lead records) is stopped here too.
    harness.store.subscribe((event) => {
      if (event.type === "model.requested") {
        this.#starting.delete(rosterKey(event.session, event.agent));
        if (!this.#isLead(event.session, event.agent)) return;
        // The lead's own request; off the append's path: the request goes out first. Asked
        // first, so a session that will keep no spare sets no timer (a process's first timer
        // loads Node's timers module, on the way to that request).
        if (this.#wantsSpare(event.session)) {
          setTimeout(() => this.#keepSpare(event.session), 0);
        }
        return;
      }
      if (event.type !== "agent.stopped") return;
      const running = this.#running.get(rosterKey(event.session, event.agent));
      if (running === undefined) return;
      running.stopping = true;
      kill(running.child, "SIGTERM");
    });
  }

  /**
   * The team mechanism's wiring. A teammate placed on a host (`spawn_teammate {host}`) is started
   * and supervised by that host's `rein host`, never here. Placing one is offered only on a log
   * several machines share (a PostgreSQL store).
   */
  options(): TeamOptions {
    return {
      start: (session, name) => {
        const entry = this.#harness === undefined
          ? undefined
          : rosterOf(this.#harness.state).byKey[rosterKey(session, name)];
        // Placed on a host: that host's rein host starts and supervises it.
        if ((entry?.host ?? null) !== null) return Promise.resolve();
        return this.start(session, name, entry?.starts ?? 0);
      },
      stopAll: () => this.stopAll(),
      ...(this.#host.store === undefined ? {} : {
        hosts: {
          live: async (session: string) =>
            (await this.#leases?.holder?.(session, HOST_AGENT)) !== undefined,
        },
      }),
    };
  }

  /**
   * Record crashed (`agent.stopped {reason: "crashed"}`) the live teammates of this process's
   * sessions placed on a host that is gone (its lease lapsed, or it left): their processes died
   * with it and nobody else records it; a `-p` run would wait on them. Never throws.
   */
  async #checkHosts(): Promise<void> {
    const harness = this.#harness;
    const holder = this.#leases?.holder?.bind(this.#leases);
    if (harness === undefined || holder === undefined || this.#closed || this.#checkingHosts) {
      return;
    }
    this.#checkingHosts = true;
    try {
      const sessions = new Set(Object.keys(harness.state.sessions.byId));
      const roster = rosterOf(harness.state);
      const placed = new Set(
        roster.order.flatMap((key) => {
          const entry = roster.byKey[key];
          const host = entry?.host ?? null;
          return host !== null && sessions.has(entry!.session) && isLive(entry!.status)
            ? [host]
            : [];
        }),
      );
      if (placed.size === 0) return;
      const live = new Set<string>();
      for (const name of placed) {
        const host = roster.hosts[name];
        if (host === undefined || host.left) continue;
        if (await holder(host.session, HOST_AGENT) !== undefined) live.add(name);
      }
      await harness.store.catchUp();
      const lost = lostTeammates(rosterOf(harness.state), sessions, live);
      if (lost.length === 0 || this.#closed) return;
      await harness.store.append(
        lost.map(({ session, name }) =>
          event(session, name, "agent.stopped", { reason: "crashed" })
        ),
      );
    } catch {
      // The store is closing, or cannot be reached: looked at again next time.
    } finally {
      this.#checkingHosts = false;
    }
  }

  /** The teammates (roster keys) whose processes this one runs now. */
  running(): Set<string> {
    return new Set(this.#running.keys());
  }

  /** Stop teammate `name` of `session` if this process runs it: SIGTERM, then SIGKILL. */
  async stop(session: string, name: string): Promise<void> {
    const key = rosterKey(session, name);
    const item = this.#running.get(key);
    if (item === undefined) return;
    this.#running.delete(key);
    await this.#end(item);
  }

  /** End a process asked to stop: SIGTERM, then SIGKILL after a grace. */
  async #end(item: Running): Promise<void> {
    item.stopping = true;
    kill(item.child, "SIGTERM");
    const timer = setTimeout(() => kill(item.child, "SIGKILL"), STOP_GRACE_MS);
    await item.child.status.catch(() => {});
    clearTimeout(timer);
  }

  /**
   * The folder teammate `name` of `session` works in: where the log places it. A host's
   * (`placed`) is its working copy or a folder inside it, as the roster has it; one the log puts
   * elsewhere is refused (throws).
   */
  #cwdOf(harness: Harness, session: string, name: string): string {
    if (this.#host.placed === undefined) {
      return agentCwd(harness.state.sessions.byId[session], name, this.#host.workspace);
    }
    const folder = rosterOf(harness.state).byKey[rosterKey(session, name)]?.cwd ?? "";
    if (!insideFolder(folder)) {
      throw new Error(
        `Teammate "${name}"'s folder "${folder}" is outside this host's working copy`,
      );
    }
    return folder === "" ? this.#host.workspace : `${this.#host.workspace}/${folder}`;
  }

  /**
   * Start teammate `name` of `session` (its `restart`th start) and record it, after `before` in
   * the same append (the exit it is started again after: no reader of the log sees it crashed in
   * between, so `rein -p` does not end then).
   */
  async start(
    session: string,
    name: string,
    restart: number,
    before: readonly NewEvent[] = [],
  ): Promise<void> {
    const harness = this.#harness;
    if (harness === undefined) throw new Error("The lead's log is not open");
    if (this.#closed) throw new Error("The lead's process is stopping");
    // Where the log places it: its spawn's folder, or the worktree it moved to (agent.moved).
    const cwd = this.#cwdOf(harness, session, name);
    const env = this.#env();
    const launch = this.#plan(session, name, cwd, env);
    // The spare when it is exactly this teammate's process but for its name, told who it is at
    // once (as a process is started before its start is recorded); else, or when it has ended
    // meanwhile, a new one.
    const spare = this.#takeSpare(launch);
    const assigned = spare === undefined
      ? undefined
      : await spare.assign({ session, agent: name }).then(() => spare.child, () => undefined);
    if (assigned !== undefined && this.#closed) {
      kill(assigned, "SIGKILL");
      throw new Error("The lead's process is stopping");
    }
    const child = assigned ?? startDeno(launch.denoArgs, cwd, env, "null");
    const running: Running = { child, stopping: false, cwd };
    const key = rosterKey(session, name);
    this.#running.set(key, running);
    this.#starting.add(key);
    child.status.then((status) => {
      this.#starting.delete(key);
      return this.#exited(session, name, running, status);
    });
    const { flags } = launch;
    await harness.store.append([
      ...before,
      event(session, name, "agent.started", { process: { pid: child.pid, flags }, restart }),
    ]);
  }

  /** Whether `agent` is the main agent of `session`. */
  #isLead(session: string, agent: string): boolean {
    return this.#harness?.state.sessions.byId[session]?.mainAgent === agent;
  }

  /**
   * A waiting spare whose launch is `launch` but for the name (a warm one first), taken; else
   * undefined, and the spares that are no longer what a teammate of the lead's place would get
   * (their flags changed: a file they are planned from did) are let go, for fresh ones to be
   * started later.
   */
  #takeSpare(launch: TeammateLaunch): Spare | undefined {
    this.#spares = this.#spares.filter((spare) => spare.waiting);
    const order = [...this.#spares.filter((s) => s.warm), ...this.#spares.filter((s) => !s.warm)];
    const taken = order.find((spare) => spare.fits(launch));
    if (taken !== undefined) {
      this.#spares = this.#spares.filter((spare) => spare !== taken);
      return taken;
    }
    // What a spare in each of their folders would be started with now: planned once a folder.
    const fresh = new Map<string, TeammateLaunch>();
    const planned = (cwd: string) =>
      fresh.get(cwd) ??
        fresh.set(cwd, this.#plan(SPARE_NAME, SPARE_NAME, cwd, launch.env)).get(cwd)!;
    const stale = this.#spares.filter((spare) => !spare.fits(planned(spare.cwd)));
    this.#spares = this.#spares.filter((spare) => !stale.includes(spare));
    for (const spare of stale) spare.stop(STOP_GRACE_MS).catch(() => {});
    return undefined;
  }

  /** {@link #spareWanted}, false when it cannot be told (never throws: a store's listener). */
  #wantsSpare(session: string): boolean {
    try {
      return this.#spareWanted(session);
    } catch {
      return false;
    }
  }

  /**
   * Whether a spare for `session`'s teammates is to be started now: every spare waiting is warm
   * and there are fewer than the number to keep, no teammate is starting, this is a lead's process
   * that is not closing, and the session's lead can spawn (teams on) and has fewer than
   * {@link MAX_LIVE_TEAMMATES} live with the spares.
   */
  #spareWanted(session: string): boolean {
    const harness = this.#harness;
    if (harness === undefined || this.#closed || this.#host.spare !== true) return false;
    if (this.#starting.size > 0 || this.#spareDeaths >= SPARE_DEATHS) return false;
    const waiting = this.#spares.filter((spare) => spare.waiting);
    if (waiting.some((spare) => !spare.warm)) return false;
    const view = harness.state.sessions.byId[session];
    if (view === undefined) return false;
    // The settings the session recorded, file by file (as teams.enabled is read).
    const snapshot = view.settings ?? undefined;
    const setting = snapshot === undefined
      ? undefined
      : spareSetting(recordedSettings(snapshot).files, snapshot.trusted !== false);
    const { count, problem } = spareCount(this.#host.env, setting);
    if (problem !== undefined && !this.#spareCountTold) {
      this.#spareCountTold = true;
      this.#host.onNotice?.(problem);
    }
    if (waiting.length >= count) return false;
    if (harness.findTool("spawn_teammate", { session, agent: view.mainAgent }) === undefined) {
      return false;
    }
    return liveTeammates(harness.state, session).length + waiting.length < MAX_LIVE_TEAMMATES;
  }

  /**
   * Start a spare for `session`'s teammates when one is wanted ({@link #spareWanted}), and once it
   * is warm the next one if the lead still waits for the model. Never throws.
   */
  #keepSpare(session: string): void {
    try {
      const harness = this.#harness;
      const view = harness?.state.sessions.byId[session];
      if (harness === undefined || view === undefined || !this.#spareWanted(session)) return;
      // Where its teammates start: the lead's place.
      const cwd = agentCwd(view, view.mainAgent, this.#host.workspace);
      const spare = new Spare(this.#plan(SPARE_NAME, SPARE_NAME, cwd, this.#env()), startDeno);
      this.#spares.push(spare);
      spare.child.status.then(() => {
        if (!this.#spares.includes(spare)) return;
        this.#spares = this.#spares.filter((other) => other !== spare);
        this.#spareDeaths++;
      });
      // Warm while the lead still waits for that answer (its conversation says so): the next.
      spare.ready.then((warm) => {
        const lead = this.#harness?.state.sessions.byId[session];
        if (warm && lead !== undefined && mainAgentOf(lead).awaitingModel) this.#keepSpare(session);
      });
    } catch {
      // No spare: spawns start cold.
    }
  }

  /**
   * The teammate's environment: the lead's, with `REIN_STORE` the lead's store (none when the
   * lead's log is its JSONL file: the teammate's is too).
   */
  #env(): Record<string, string> {
    const { REIN_STORE: _, ...env } = this.#host.env;
    const store = this.#host.store;
    return store === undefined ? env : { ...env, REIN_STORE: store };
  }

  /**
   * The launcher's plan for the teammate (in `env`: a store's host is its only database net), its
   * permissions narrowed.
   */
  #plan(
    session: string,
    name: string,
    cwd: string,
    env: Readonly<Record<string, string>>,
  ): TeammateLaunch {
    const main = decodeURIComponent(new URL(Deno.mainModule).pathname);
    const fromSource = main.endsWith("/cli/main.ts");
    // The checkout: cli/main.ts is in it, and a bundle (dist/main.js, the cached bundle's
    // folder) one level below it, as rein's skills' folder is found from either.
    const root = dirname(dirname(main));
    const args = [
      "teammate",
      "--session",
      session,
      "--agent",
      name,
      "--workspace",
      this.#host.workspace,
      "--log",
      this.#host.logPath,
      ...(this.#host.mcpConfig ?? []).flatMap((given) => ["--mcp-config", given]),
      ...(this.#host.strictMcpConfig === true ? ["--strict-mcp-config"] : []),
      ...(this.#host.trust === true ? ["--trust"] : []),
    ];
    const plan = planLaunch({
      argv: fromSource ? args : ["--entry", main, ...args],
      env: { ...env },
      cwd: this.#host.cwd,
      root,
      realPath,
      readText,
    });
    const flags = teammateFlags(plan.permissions, {
      workspace: this.#host.workspace,
      cwd,
      realPath,
      entries: (path) => {
        try {
          return [...Deno.readDirSync(path)].map((entry) => entry.name);
        } catch {
          return [];
        }
      },
    });
    const denoArgs = plan.denoArgs.map((arg) => {
      const at = plan.permissions.indexOf(arg);
      return at < 0 ? arg : flags[at] as string;
    });
    // Flags the teammate has beyond the launcher's (a worktree's denials) follow its last one.
    const last = denoArgs.indexOf(flags[plan.permissions.length - 1] as string);
    denoArgs.splice(last + 1, 0, ...flags.slice(plan.permissions.length));
    return { flags, denoArgs, reinArgs: args, cwd, env };
  }

  /** A teammate's process ended: unexpectedly, unless asked to or its stop is in the log. */
  async #exited(
    session: string,
    name: string,
    running: Running,
    status: Deno.CommandStatus,
  ): Promise<void> {
    const key = rosterKey(session, name);
    if (this.#running.get(key) === running) this.#running.delete(key);
    const harness = this.#harness;
    if (running.stopping || this.#closed || harness === undefined) return;
    try {
      await harness.store.catchUp();
      const entry = rosterOf(harness.state).byKey[key];
      if (entry?.status === "stopped") return;
      if (
        status.code === RELAUNCH_EXIT_CODE && this.#cwdOf(harness, session, name) !== running.cwd
      ) {
        // It moved (a worktree): started again with flags for its new place, no crash recorded.
        return void await this.start(session, name, entry?.starts ?? 1);
      }
      const code = status.signal === null ? status.code : null;
      const exited = event(session, name, "agent.exited", { code, signal: status.signal });
      if (this.#closed) return void await harness.store.append([exited]);
      // The exit and what follows it (the restart, or the crash) are recorded in one append.
      const now = this.#host.clock();
      const exits = [...entry?.exits ?? [], { at: now.toISOString() }];
      if (planRestart(exits, now) === "restart") {
        await this.start(session, name, entry?.starts ?? 1, [exited]);
      } else {
        await harness.store.append([
          exited,
          event(session, name, "agent.stopped", { reason: "crashed" }),
        ]);
      }
    } catch {
      // The lead's log is closing: the teammate's state stays as the log has it.
    }
  }

  /** Stop every teammate this process started: SIGTERM, then SIGKILL after a grace. */
  async stopAll(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#hostWatch);
    const running = [...this.#running.values()];
    this.#running.clear();
    const spares = this.#spares;
    this.#spares = [];
    await Promise.all([
      ...spares.map((spare) => spare.stop(STOP_GRACE_MS)),
      ...running.map((item) => this.#end(item)),
    ]);
  }
}

function event(session: string, agent: string, type: string, data: unknown): NewEvent {
  return { type, session, agent, data } as NewEvent;
}

/**
 * Start Deno with `args` under `setpriv --pdeathsig SIGKILL` (as cli/launch.ts starts rein): the
 * teammate dies with the lead's process; without setpriv, plainly. Its stdin and stdout are
 * `/dev/null`, or pipes only this process holds (a spare's).
 */
function startDeno(
  args: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string>>,
  pipes: "null" | "piped",
): Deno.ChildProcess {
  const deno = Deno.execPath();
  const options = {
    cwd,
    env: { ...env },
    clearEnv: true,
    stdin: pipes,
    stdout: pipes,
    stderr: "null",
  } as const;
  try {
    return new Deno.Command("setpriv", {
      ...options,
      args: ["--pdeathsig", "SIGKILL", "--", deno, ...args],
    }).spawn();
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    return new Deno.Command(deno, { ...options, args: [...args] }).spawn();
  }
}

function kill(child: Deno.ChildProcess, signal: Deno.Signal): void {
  try {
    child.kill(signal);
  } catch {
    // It has exited already.
  }
}

function realPath(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}
