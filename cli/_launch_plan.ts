/**
 * How the launcher starts rein: the `deno` arguments, computed from the command line, the
 * environment and where it was started. Zero imports beyond the launcher's own helpers.
 *
 * @module
 */
import { parentOf, parseLaunchArgs, resolvePath } from "./_launch_args.ts";
import {
  agentPermissions,
  mcpEditPermissions,
  mcpServePermissions,
  READ_ONLY_PERMISSIONS,
  salvagePermissions,
  storeHost,
  storePermissions,
  trustPermissions,
  viewPermissions,
} from "./_launch_flags.ts";
import { marketplaceFolders } from "./_launch_marketplaces.ts";
import { mcpLaunchNeeds } from "./_launch_mcp.ts";

/** V8 flags of the agent process (a small young generation: less memory, no slower here). */
const V8_FLAGS = "--v8-flags=--max-semi-space-size=1";
/**
 * V8 flags of the commands that stream a log (state, replay, sessions, log): a young generation
 * that holds a chunk of decoded events, so they die young instead of filling the old one. `rein
 * state` of 1M events: CPU 3.9 -> 2.6 s and peak memory 172-185 -> 153-165 MB.
 */
const V8_FLAGS_STREAMING = "--v8-flags=--max-semi-space-size=8";
/**
 * V8 flags of a teammate process (`rein teammate`): the agent's, and no compiler above the
 * baseline one (Sparkplug; no Maglev, no TurboFan). A teammate's peak memory in
 * bench/team_bench.ts (installed; lead + 8 teammates x 20 bash calls) p50 69.6-70.9 -> 64.9-66.3
 * MB: what the optimizing compilers cost in each process (their pages of the Deno binary, about
 * 2-3 MB; their machine code and what V8 keeps for them, about 2 MB). No slower here: a
 * teammate's CPU time over its 20 calls and the spare's CPU from assignment to its first request
 * were within the noise of the runs, and one fold of 100k events from a cold start (what a
 * teammate's start does) no slower. `--max-opt=0` (no Sparkplug) saves 1-2 MB more but folds
 * about a fifth slower.
 */
const V8_FLAGS_TEAMMATE = "--v8-flags=--max-semi-space-size=1,--max-opt=1";

/** Where and how the launcher runs. */
export interface LaunchContext {
  /** The launcher's arguments (without the program name). */
  argv: readonly string[];
  /** Its environment, which the agent inherits. */
  env: Readonly<Record<string, string>>;
  /** Its working directory, which the agent inherits. */
  cwd: string;
  /** The repository root: `cli/main.ts` and `deno.json` are in it. */
  root: string;
  /** The real path of an existing `path`; undefined when it does not exist. */
  realPath(path: string): string | undefined;
  /**
   * The text of the file at `path`, undefined when it cannot be read: the person's settings, for
   * the marketplace folders they name. Without it, none is named.
   */
  readText?(path: string): string | undefined;
}

/** What the launcher does. */
export interface LaunchPlan {
  /** The permission flags rein gets (what `--show-permissions` prints). */
  permissions: string[];
  /** Whether to print {@link permissions} and exit instead of starting rein. */
  showPermissions: boolean;
  /** The arguments of `deno` that start rein. */
  denoArgs: string[];
  /** Lines for stderr before rein starts. */
  notices: string[];
}

/**
 * Plan a launch. The agent gets read and write access to its workspace (computed as cli/paths.ts
 * does: `--workspace` against REIN_CALLER_DIR, else the working directory), to the directory of a
 * `--log` and to the temp directory (the bash tool's script files), read access to `~/.claude`, and
 * the rest of {@link agentPermissions}; each path both as named and, when it exists and differs, as
 * its real path. The read-only commands get {@link READ_ONLY_PERMISSIONS}; `log salvage` reads
 * anything and writes the directory of its log (its argument, else `--log`, else the workspace's),
 * see `salvagePermissions`. `--entry PATH` (relative to the root) starts a self-contained module,
 * the bundle, without a config file; otherwise `cli/main.ts` runs with the root's `deno.json`. Pure
 * but for `context.realPath`; throws what {@link agentPermissions} throws.
 */
export function planLaunch(context: LaunchContext): LaunchPlan {
  const { env, root } = context;
  const parsed = parseLaunchArgs(context.argv);
  const entry = parsed.entry === undefined
    ? `${root}/cli/main.ts`
    : resolvePath(root, parsed.entry);
  const config = parsed.entry === undefined ? ["--config", `${root}/deno.json`] : ["--no-config"];
  let permissions = [...READ_ONLY_PERMISSIONS];
  const notices: string[] = [];
  const named = (path: string) => {
    const real = context.realPath(path);
    return real === undefined || real === path ? [path] : [path, real];
  };
  const caller = env.REIN_CALLER_DIR || context.cwd;
  const workspace = resolvePath(caller, parsed.workspace ?? ".");
  if (parsed.salvage) {
    const log = parsed.logArgument ?? parsed.log;
    permissions = salvagePermissions(
      named(log === undefined ? `${workspace}/.rein` : parentOf(resolvePath(caller, log))),
    );
  } else if (parsed.trust) {
    permissions = trustPermissions(claudeJsonFiles(env).flatMap(named));
  } else if (parsed.view) {
    permissions = viewPermissions(parsed.viewOpen);
  } else if (parsed.mcpServe) {
    const log = parsed.log === undefined
      ? `${workspace}/.rein`
      : parentOf(resolvePath(caller, parsed.log));
    // The machine key (core/effects/machine_key.ts) checks the log's snapshots.
    permissions = mcpServePermissions([
      ...named(workspace),
      ...named(log),
      ...machineStateDir(env).flatMap(named),
      // The bundle's folder: its chunks are imported when first used (cli/build.ts).
      ...(parsed.entry === undefined ? [] : named(parentOf(entry))),
    ]);
  } else if (parsed.mcpEdit) {
    const real = context.realPath(workspace) ?? workspace;
    permissions = mcpEditPermissions([
      ...[...new Set([workspace, real])].flatMap((dir) => [
        `${dir}/.mcp.json`,
        `${dir}/.mcp.json.rein.tmp`,
      ]),
      ...claudeJsonFiles(env).flatMap(named),
    ]);
  } else if (!parsed.readOnly) {
    const home = env.HOME ?? "";
    // The repository the workspace is in, when it is a subdirectory of one: its CLAUDE.md files
    // and git HEAD above the workspace are read when a session starts.
    const repository = repositoryAbove(workspace, context.realPath);
    // A --settings file is read by the agent, relative to the workspace as rein reads it.
    const settings = parsed.settings === undefined
      ? []
      : named(resolvePath(workspace, parsed.settings));
    const mcp = mcpLaunchNeeds({
      workspace,
      caller,
      mcpConfigs: parsed.mcpConfigs,
      strict: parsed.strictMcp,
      trustFlag: parsed.trustFlag,
      claudeJson: claudeJsonFiles(env)[0],
      env,
      readText: (path) => context.readText?.(path),
    });
    const granted = agentPermissions({
      readWrite: [
        ...named(workspace),
        ...(parsed.log === undefined ? [] : named(parentOf(resolvePath(caller, parsed.log)))),
        ...named(resolvePath(context.cwd, env.TMPDIR || "/tmp")),
        // The machine key (core/effects/machine_key.ts), made on the first run.
        ...machineStateDir(env).flatMap(named),
        // rein's clones of the git marketplaces and plugins the settings enable
        // (core/plugins/marketplace_clone.ts), made when first needed.
        ...pluginCacheDir(env).flatMap(named),
        // Claude Code's workspace trust, read at start and written when the REPL's question is
        // answered yes (core/settings/trust.ts).
        ...claudeJsonFiles(env).flatMap(named),
      ],
      read: [
        ...(home.startsWith("/") ? named(resolvePath(home, ".claude")) : []),
        // Claude Code's plugins where CLAUDE_CONFIG_DIR moves them (installed_plugins.json and
        // its cache), read for the plugins the settings enable (core/plugins).
        ...claudeConfigPlugins(env).flatMap(named),
        ...settings,
        ...mcp.files.flatMap(named),
        // Plugin folders (--plugin-dir), read when a session starts, relative to the caller.
        ...parsed.pluginDirs.flatMap((dir) => named(resolvePath(caller, dir))),
        // Marketplace folders the person's settings name (extraKnownMarketplaces), read when a
        // session starts for the plugins the settings enable.
        ...(home.startsWith("/")
          ? marketplaceFolders(
            context.readText?.(resolvePath(home, ".claude/settings.json")),
            home,
            workspace,
          ).flatMap(named)
          : []),
        // rein's bundled skills, read when a session starts.
        ...named(resolvePath(root, "skills")),
        // The bundle's folder: its chunks are imported when first used (cli/build.ts).
        ...(parsed.entry === undefined ? [] : named(parentOf(entry))),
        ...(repository === undefined ? [] : named(repository)),
      ],
      baseUrl: env.ANTHROPIC_BASE_URL,
      // The remote MCP servers configured (and trusted) are reached too; stdio ones need nothing.
      netHosts: [
        ...mcp.hosts,
        // The agent's log in PostgreSQL (--store, else REIN_STORE): its host only.
        ...[storeHost(parsed.store ?? env.REIN_STORE ?? "")].filter((h) => h !== undefined),
      ],
      env,
    });
    permissions = granted.flags;
    notices.push(...granted.notices);
  }
  // A log command or rein view on a PostgreSQL store (--store, else REIN_STORE) reaches its host,
  // and only then.
  const store = parsed.readOnly || parsed.view ? parsed.store ?? env.REIN_STORE : undefined;
  if (store) permissions = storePermissions(permissions, store, env.TMPDIR || "/tmp");
  return {
    permissions,
    showPermissions: parsed.showPermissions,
    denoArgs: [
      "run",
      "--quiet",
      parsed.readOnly || parsed.salvage || parsed.view || parsed.mcpServe
        ? V8_FLAGS_STREAMING
        : parsed.teammate
        ? V8_FLAGS_TEAMMATE
        : V8_FLAGS,
      ...config,
      ...permissions,
      entry,
      ...parsed.args,
    ],
    notices,
  };
}

/**
 * rein's machine state folder, as core/effects/machine_key.ts finds it: `$XDG_STATE_HOME/rein`,
 * else `$HOME/.local/state/rein`; none without an absolute HOME. Pure.
 */
function machineStateDir(env: Readonly<Record<string, string>>): string[] {
  const state = env.XDG_STATE_HOME ?? "";
  if (state.startsWith("/")) return [resolvePath(state, "rein")];
  const home = env.HOME ?? "";
  return home.startsWith("/") ? [resolvePath(home, ".local/state/rein")] : [];
}

/**
 * Claude Code's plugins folder when `$CLAUDE_CONFIG_DIR` (absolute) moves it from `~/.claude`,
 * as core/plugins/installed_plugins.ts finds it; none otherwise. Pure.
 */
function claudeConfigPlugins(env: Readonly<Record<string, string>>): string[] {
  const dir = env.CLAUDE_CONFIG_DIR ?? "";
  return dir.startsWith("/") ? [resolvePath(dir, "plugins")] : [];
}

/**
 * rein's folder of cloned plugin marketplaces, as core/plugins/marketplace_clone.ts finds it:
 * `$XDG_CACHE_HOME/rein/plugins`, else `$HOME/.cache/rein/plugins`; none without an absolute
 * HOME. Pure.
 */
function pluginCacheDir(env: Readonly<Record<string, string>>): string[] {
  const cache = env.XDG_CACHE_HOME ?? "";
  if (cache.startsWith("/")) return [resolvePath(cache, "rein/plugins")];
  const home = env.HOME ?? "";
  return home.startsWith("/") ? [resolvePath(home, ".cache/rein/plugins")] : [];
}

/**
 * The nearest directory above `workspace` with a `.git` in it, or undefined (none, or the
 * workspace itself is the repository's root). Pure but for `realPath`.
 */
function repositoryAbove(
  workspace: string,
  realPath: (path: string) => string | undefined,
): string | undefined {
  if (realPath(`${workspace}/.git`) !== undefined) return undefined;
  for (let dir = parentOf(workspace); dir !== "/"; dir = parentOf(dir)) {
    if (realPath(`${dir}/.git`) !== undefined) return dir;
  }
  return undefined;
}

/**
 * Claude Code's `~/.claude.json` (`$CLAUDE_CONFIG_DIR/.claude.json` when set), where workspace
 * trust is kept, and the temporary file rein renames over it (core/settings/trust.ts); none
 * without an absolute HOME or config dir. Pure.
 */
function claudeJsonFiles(env: Readonly<Record<string, string | undefined>>): string[] {
  const dir = env.CLAUDE_CONFIG_DIR || env.HOME || "";
  if (!dir.startsWith("/")) return [];
  const file = resolvePath(dir, ".claude.json");
  return [file, `${file}.rein.tmp`];
}
