/**
 * What the launcher needs from a `rein` command line, read without commander. Zero imports: the
 * launcher must start fast.
 *
 * @module
 */

/** Commands that only read (the agent's permissions are not needed); `log` but `log salvage`. */
const READ_ONLY_COMMANDS = new Set(["state", "replay", "sessions", "tasks", "help", "log"]);
/** Options of rein's commands that take the next argument as their value. */
const VALUE_OPTIONS = new Set([
  "--workspace",
  "--log",
  "--settings",
  "--plugin-dir",
  "--mcp-config",
  "--store",
]);
/** Flags that print and exit when they come first. */
const READ_ONLY_FLAGS = new Set(["-h", "--help", "-V", "--version"]);

/** A launcher command line, split into the launcher's part and the agent's. */
export interface LaunchArgs {
  /** `--entry PATH`, when the launcher's first arguments give it: the module to start. */
  entry: string | undefined;
  /** Whether the command only reads: state, replay, sessions, tasks, log check and stats, help. */
  readOnly: boolean;
  /**
   * Whether the command is `log salvage`, which reads and writes the log's directory only; and
   * its log argument, as given (it comes before `--log`).
   */
  salvage: boolean;
  logArgument: string | undefined;
  /** Whether the command is `rein trust`, which reads anything and writes `~/.claude.json` only. */
  trust: boolean;
  /**
   * Whether the command is `rein view`, which reads anything and listens on 127.0.0.1 only; and
   * whether it was given `--open` (it then starts the browser).
   */
  view: boolean;
  viewOpen: boolean;
  /**
   * Whether the command is `rein mcp serve` (reads the workspace and the log, runs rg only), or
   * another `rein mcp` command (reads anything, writes `.mcp.json` and `~/.claude.json` only).
   */
  mcpServe: boolean;
  mcpEdit: boolean;
  /** Whether the command is `rein teammate` (a teammate's process, started by the lead's). */
  teammate: boolean;
  /** Whether `--show-permissions` was given: print the flags instead of starting rein. */
  showPermissions: boolean;
  /** The last `--workspace` given, as given. */
  workspace: string | undefined;
  /** The last `--log` given, as given. */
  log: string | undefined;
  /** The last `--settings` given, as given: the agent must read it. */
  settings: string | undefined;
  /** Every `--plugin-dir` given, as given: plugin folders the agent must read. */
  pluginDirs: string[];
  /** Every `--mcp-config` given (a file or JSON), `--strict-mcp-config` and `--trust` (core/mcp). */
  mcpConfigs: string[];
  /** `--store URL`: the event store a log command reads (a PostgreSQL URL). */
  store?: string;
  strictMcp: boolean;
  trustFlag: boolean;
  /** The arguments for rein: all but `--entry PATH` and `--show-permissions`. */
  args: string[];
}

/**
 * Split `argv` (without the program name). Options are read as commander reads them where it
 * matters here: `--workspace DIR` or `--workspace=DIR`, the last one winning, and nothing after
 * `--`. A misreading cannot widen the agent's access: the agent resolves its own workspace and log,
 * and one outside what the launcher allowed fails with `NotCapable`. Pure.
 */
export function parseLaunchArgs(argv: readonly string[]): LaunchArgs {
  let rest = [...argv];
  let entry: string | undefined;
  if (rest[0] === "--entry" && rest[1] !== undefined) {
    entry = rest[1];
    rest = rest.slice(2);
  }
  const end = rest.indexOf("--");
  const options = end === -1 ? rest : rest.slice(0, end);
  const showPermissions = options.includes("--show-permissions");
  const args = showPermissions ? rest.filter((arg) => arg !== "--show-permissions") : rest;
  const first = args[0] ?? "";
  const words = positional(args);
  const salvage = first === "log" && words[1] === "salvage";
  const store = lastValue(options, "--store");
  return {
    ...(store === undefined ? {} : { store }),
    entry,
    readOnly: !salvage && (READ_ONLY_COMMANDS.has(first) || READ_ONLY_FLAGS.has(first)),
    salvage,
    logArgument: salvage ? words[2] : undefined,
    trust: first === "trust",
    view: first === "view",
    viewOpen: first === "view" && options.includes("--open"),
    mcpServe: first === "mcp" && words[1] === "serve",
    mcpEdit: first === "mcp" && words[1] !== "serve",
    teammate: first === "teammate",
    showPermissions,
    workspace: lastValue(options, "--workspace"),
    log: lastValue(options, "--log"),
    settings: lastValue(options, "--settings"),
    pluginDirs: allValues(options, "--plugin-dir"),
    mcpConfigs: allValues(options, "--mcp-config"),
    strictMcp: options.includes("--strict-mcp-config"),
    trustFlag: options.includes("--trust"),
    args,
  };
}

/**
 * The arguments of `args` that are not options or an option's value (every one after `--`), as
 * commander reads the commands' arguments. Pure.
 */
function positional(args: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    if (arg === "--") return [...words, ...args.slice(i + 1)];
    if (VALUE_OPTIONS.has(arg)) i++;
    else if (!arg.startsWith("-")) words.push(arg);
  }
  return words;
}

/** The value of the last `name VALUE` or `name=VALUE` in `options`. Pure. */
function lastValue(options: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < options.length; i++) {
    const option = options[i] ?? "";
    if (option === name && options[i + 1] !== undefined) value = options[++i];
    else if (option.startsWith(`${name}=`)) value = option.slice(name.length + 1);
  }
  return value;
}

/** Every value of `name VALUE` or `name=VALUE` in `options`, in order. Pure. */
function allValues(options: readonly string[], name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < options.length; i++) {
    const option = options[i] ?? "";
    if (option === name && options[i + 1] !== undefined) values.push(options[++i] ?? "");
    else if (option.startsWith(`${name}=`)) values.push(option.slice(name.length + 1));
  }
  return values;
}

/**
 * `path` resolved against the absolute directory `base` and normalized, as `resolve(base, path)`
 * of node:path does on POSIX. Pure.
 */
export function resolvePath(base: string, path: string): string {
  const parts: string[] = [];
  for (const part of (path.startsWith("/") ? path : `${base}/${path}`).split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "" && part !== ".") parts.push(part);
  }
  return `/${parts.join("/")}`;
}

/** The directory of an absolute, normalized `path`. Pure. */
export function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf("/")) || "/";
}
