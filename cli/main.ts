import type { AgentFlags } from "./agent_command.ts";
import type { TeammateFlags } from "./teammate_command.ts";
import { type CommandIo, processIo } from "./io.ts";
import type { RuntimeEnv } from "./paths.ts";
import { PERMISSION_MODES } from "../core/settings/settings.ts";
import { logWayOut } from "./log_way_out.ts";
import { REIN_VERSION } from "./version.ts";

/** Values of `--output-format`. */
const OUTPUT_FORMATS = ["text", "json", "stream-json", "events"] as const;

/**
 * Build the `rein` command line (commander, imported here: it takes ~20 ms to load, which a plain
 * agent run skips, see {@link plainAgentFlags}). `exit` receives each command's exit code.
 */
export async function buildProgram(
  io: CommandIo,
  env: RuntimeEnv,
  exit: (code: number) => void,
) {
  const { Command, InvalidArgumentError, Option } = await import("@commander-js/extra-typings");
  const positiveDollars = (value: string) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0) {
      throw new InvalidArgumentError(`"${value}" is not a positive number of dollars`);
    }
    return n;
  };
  const positiveInt = (value: string) => {
    const n = parsePositiveInt(value);
    if (n === undefined) throw new InvalidArgumentError(`"${value}" is not a positive integer`);
    return n;
  };
  const program = new Command("rein")
    .description("An event-sourced coding agent: every step is logged, any run can be replayed")
    .version(REIN_VERSION)
    .showHelpAfterError();

  const agentProgram = program.command("agent", { isDefault: true })
    .description("Run the agent: interactive, or headless with -p")
    .argument("[prompt]", "a first prompt (with -p: the prompt)")
    .option("-p, --print [prompt]", "headless: run one prompt (or stdin), print the result, exit")
    .addOption(
      new Option(
        "--output-format <format>",
        "with -p: text, json or stream-json (Claude Code's shapes), or events (rein's log lines)",
      )
        .choices(OUTPUT_FORMATS).default("text" as const),
    )
    .option("--verbose", "accepted for Claude Code compatibility (stream-json is always full)")
    .option("-d, --debug", "print every event of the log to stderr as it is appended")
    .addOption(
      new Option(
        "--permission-mode <mode>",
        "how calls no rule decides are handled (default: the settings' defaultMode, or default)",
      ).choices(PERMISSION_MODES),
    )
    .option(
      "--allowedTools, --allowed-tools <rules>",
      'permission rules that allow calls, e.g. "Bash(npm test *) Edit" (repeatable)',
      collect,
    )
    .option(
      "--disallowedTools, --disallowed-tools <rules>",
      'permission rules that deny calls, e.g. "Bash(git push *)" (repeatable)',
      collect,
    )
    .option("--settings <file>", "a settings file above all others (Claude Code's format)")
    .option(
      "--trust",
      "apply this folder's own settings (allow rules, hooks, env) without it being trusted " +
        "(for automation that checked the repository; see rein trust)",
    )
    .option(
      "--setting-sources <sources>",
      "which settings files to read: user, project, local, comma-separated (default: all)",
    )
    .option(
      "--plugin-dir <dir>",
      "a Claude Code plugin folder to use: its commands, agents, skills and hooks (repeatable)",
      collect,
    )
    .option(
      "--mcp-config <file-or-json>",
      'MCP servers to start, a file or JSON text: {"mcpServers": {…}} (repeatable)',
      collect,
    )
    .option("--strict-mcp-config", "start only the --mcp-config servers")
    .addOption(
      new Option(
        "--input-format <format>",
        "text (with -p), or stream-json (user messages and control requests as JSON lines, " +
          "as the Agent SDK sends them; -p implied)",
      ).choices(["text", "stream-json"] as const),
    )
    .option(
      "--permission-prompt-tool <tool>",
      "with --input-format stream-json: stdio asks the program driving rein about calls " +
        "(the Agent SDK's canUseTool)",
    )
    .addOption(
      new Option("--effort <level>", "extended thinking before answers: low, medium, high, max")
        .choices(["low", "medium", "high", "max"] as const),
    )
    .option(
      "--model <model>",
      "model id or alias: opus, sonnet, haiku, fable (default: claude-sonnet-5)",
    )
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--store <url>", "the event log in PostgreSQL, postgres://…?log=NAME (or REIN_STORE)")
    .option("--workspace <dir>", "directory the agent works in (default: where you started it)")
    .option("-r, --resume [id]", "reopen a session by id (a prefix is enough); no id: choose")
    .option("--session-id <uuid>", "the id of the new session (a UUID)")
    .option("--print-system-prompt", "print the system prompt a new session starts with, and exit")
    .option("--system-prompt <text>", "replace rein's instructions in the system prompt")
    .option("--append-system-prompt <text>", "add text at the end of the system prompt")
    .option("-c, --continue", "reopen the latest session of the log")
    .option("--fork <id@seq>", "start a new session from another one's history up to seq")
    .option(
      "-w, --worktree [name]",
      "start in a git worktree .claude/worktrees/<name> (made now; a name is chosen if omitted)",
    )
    .option(
      "--fallback-model <model>",
      "model to use for the rest of a turn when the model is overloaded 3 times in a row",
    )
    .option("--max-turns <n>", "stop a run after n model turns", positiveInt)
    .option(
      "--max-budget-usd <dollars>",
      "stop a run before a request once it has spent this many dollars",
      positiveDollars,
    );
  // Claude Code flags rein does not act on (the Agent SDK passes its options as flags): accepted,
  // kept out of the help, and named on stderr with the reason.
  const { IGNORED_CLAUDE_FLAGS } = await import("./_claude_flags.ts");
  const ignoredOptions = IGNORED_CLAUDE_FLAGS.map(({ flag, value }) => {
    const option = new Option(value ? `${flag} <value>` : flag).hideHelp();
    // --no-session-persistence is a flag of its own, not the negation of another (which would
    // give every run a default value for it).
    option.negate = false;
    agentProgram.addOption(option);
    return { flag, name: option.attributeName() };
  });
  agentProgram.action(async (prompt, flags, command) => {
    const ignoredFlags = ignoredOptions.flatMap(({ flag, name }) =>
      command.getOptionValueSource(name) === "cli" ? [flag] : []
    );
    const { agentCommand } = await import("./agent_command.ts");
    const given = prompt === undefined ? flags : { ...flags, prompt };
    exit(await agentCommand({ ...given, ignoredFlags }, env, io));
  });

  program.command("daemon")
    .description(
      "Run the workspace's scheduled (cron) prompts headless until SIGTERM, in the daemon's " +
        "latest session (its unfinished turn first) or a new one",
    )
    .option("--workspace <dir>", "directory the agent works in (default: where you started it)")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--model <model>", "model of a new session (default: claude-sonnet-5)")
    .option("--settings <file>", "a settings file above all others (Claude Code's format)")
    .addOption(
      new Option("--permission-mode <mode>", "how calls no rule decides are handled")
        .choices(PERMISSION_MODES),
    )
    .option("--allowedTools, --allowed-tools <rules>", "permission rules that allow calls", collect)
    .option("--disallowedTools, --disallowed-tools <rules>", "rules that deny calls", collect)
    .option("-r, --resume <id>", "run this session (a prefix is enough) instead")
    .option("--new-session", "start a new session even if the workspace has a daemon session")
    .option(
      "--trust",
      "apply this folder's own settings (allow rules, hooks, env) without it being trusted " +
        "(for automation that checked the repository; see rein trust)",
    )
    .option("--max-turns <n>", "stop each scheduled run after n model turns", positiveInt)
    .action(async (flags) => {
      const { daemonCommand } = await import("./daemon_command.ts");
      exit(await daemonCommand(flags, env, io));
    });

  program.command("host")
    .description(
      "Offer this machine to run teammates that leads elsewhere place on it " +
        "(spawn_teammate {host}), in this working copy, on a shared PostgreSQL log, until SIGTERM",
    )
    .option("--store <url>", "the shared log (postgres://…; default: REIN_STORE)")
    .option("--workspace <dir>", "this machine's working copy (default: where you started it)")
    .option("--name <name>", "how leads name this host (default: the machine's hostname)")
    .option(
      "--trust-hooks",
      "also run teammates of sessions whose settings carry a person's own hook commands (they " +
        "run unconfined here): only if you trust whoever can write to the database",
    )
    .action(async (flags) => {
      const { hostCommand } = await import("./host_command.ts");
      exit(await hostCommand(flags, env, io));
    });

  program.command("trust")
    .description(
      "Trust a folder, as Claude Code's trust dialog does (~/.claude.json): its settings' allow " +
        "rules, hooks, env and MCP servers apply",
    )
    .argument("[dir]", "the folder (default: where you are)")
    .option("--list", "list the trusted folders")
    .option("--revoke", "take the folder's trust back")
    .action(async (dir, flags) => {
      const { trustCommand } = await import("./trust_command.ts");
      exit(await trustCommand(dir, flags, env, io));
    });

  /** The log a log command reads: its argument, else --log, else the workspace's. */
  const logOf = async (log: string | undefined, flags: { log?: string; workspace?: string }) => {
    const { defaultLogPath, resolveWorkspace, userPath } = await import("./paths.ts");
    const given = log ?? flags.log;
    return given
      ? userPath(given, env, Deno.cwd())
      : defaultLogPath(resolveWorkspace(flags.workspace, env, Deno.cwd()));
  };

  /**
   * Run `command` on the log: `--store`'s, else the log named (argument or --log), else
   * REIN_STORE's, else the workspace's file. A PostgreSQL log is exported to a temporary file.
   */
  const onLog = async (
    log: string | undefined,
    flags: { log?: string; workspace?: string; store?: string },
    command: (path: string) => Promise<number>,
  ) => {
    const { storeOf, withStoreLog } = await import("./store_log.ts");
    const named = flags.store === undefined && (log ?? flags.log) !== undefined;
    const store = named ? undefined : storeOf(flags.store, env);
    return store === undefined ? command(await logOf(log, flags)) : withStoreLog(store, command);
  };
  const STORE_HELP =
    "a PostgreSQL log, postgres://…?log=NAME (default: $REIN_STORE, else the file)";

  program.command("sessions")
    .description("List the sessions of the workspace's log")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--workspace <dir>", "workspace whose log to read")
    .option("--json", "print JSON")
    .option("--store <url>", STORE_HELP)
    .action(async (flags) => {
      const { sessionsCommand } = await import("./log_commands.ts");
      exit(await onLog(undefined, flags, (log) => sessionsCommand(log, flags.json ?? false, io)));
    });

  program.command("state")
    .description("Print the state projected from a log, at its end or at a seq")
    .argument("[log]", "event log file (default: the workspace's)")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--workspace <dir>", "workspace whose log to read")
    .option("--session <id>", "show only this session")
    .option("--at <seq>", "fold only up to this seq", positiveInt)
    .option("--json", "print the whole state as JSON")
    .option("--store <url>", STORE_HELP)
    .action(async (log, flags) => {
      const { stateCommand } = await import("./state_command.ts");
      exit(
        await onLog(log, flags, (path) =>
          stateCommand(path, {
            at: flags.at,
            json: flags.json ?? false,
            session: flags.session,
          }, io)),
      );
    });

  program.command("view")
    .description(
      "Serve a live web page of a log on 127.0.0.1: sessions, each one's timeline, team, task " +
        "graph, costs, and its state at any seq",
    )
    .argument("[log]", "event log file (default: the workspace's)")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--workspace <dir>", "workspace whose log to show")
    .option("--port <n>", "port on 127.0.0.1 (default: a free one)", positiveInt)
    .option("--open", "open the page in the browser")
    .option("--store <url>", STORE_HELP)
    .action(async (log, flags) => {
      const { viewCommand } = await import("./view/view_command.ts");
      const { storeOf } = await import("./store_log.ts");
      // A log named (and no --store) is that file, as for the other log commands.
      const named = flags.store === undefined && (log ?? flags.log) !== undefined;
      const store = named ? undefined : storeOf(flags.store, env);
      exit(
        await viewCommand(store === undefined ? await logOf(log, flags) : "", {
          port: flags.port,
          open: flags.open ?? false,
          store,
        }, io),
      );
    });

  program.command("tasks")
    .description("Print the workspace's task graph: status, owner and what waits for what")
    .argument("[log]", "event log file (default: the workspace's)")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--workspace <dir>", "workspace whose log to read")
    .option("--at <seq>", "fold only up to this seq", positiveInt)
    .option("--json", "print the tasks as JSON")
    .option("--store <url>", STORE_HELP)
    .action(async (log, flags) => {
      const { tasksCommand } = await import("./tasks_command.ts");
      exit(
        await onLog(
          log,
          flags,
          (path) => tasksCommand(path, { json: flags.json ?? false, at: flags.at }, io),
        ),
      );
    });

  program.command("teammate")
    .description("Run a teammate of a session (the lead's process starts it)")
    .requiredOption("--session <id>", "the session")
    .requiredOption("--agent <name>", "the teammate's name")
    .option("--workspace <dir>", "workspace whose log to use")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option(
      "--mcp-config <file-or-json>",
      "the lead's MCP servers (repeatable)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option("--strict-mcp-config", "only the --mcp-config servers")
    .option("--trust", "the lead's --trust: apply the repository's own settings")
    .action(async (flags) => {
      const { teammateCommand } = await import("./teammate_command.ts");
      exit(await teammateCommand(flags, env, io));
    });

  program.command("team")
    .description("Print the workspace's teammates: role, status, model, process and last action")
    .argument("[log]", "event log file (default: the workspace's)")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--workspace <dir>", "workspace whose log to read")
    .option("--session <id>", "show only this session's teammates")
    .option("--json", "print the roster as JSON")
    .option("--store <url>", STORE_HELP)
    .action(async (log, flags) => {
      const { teamCommand } = await import("./team_command.ts");
      exit(
        await onLog(log, flags, (path) =>
          teamCommand(path, {
            json: flags.json ?? false,
            session: flags.session,
          }, io)),
      );
    });

  program.command("worktrees")
    .description("List the workspace's git worktrees: task, branch and state (clean, dirty, ahead)")
    .option("--workspace <dir>", "workspace whose log and repository to read")
    .option("--all", "list removed worktrees too")
    .option("--json", "print the worktrees as JSON")
    .action(async (flags) => {
      const { resolveWorkspace } = await import("./paths.ts");
      const { worktreesCommand } = await import("./worktrees_command.ts");
      const workspace = resolveWorkspace(flags.workspace, env, Deno.cwd());
      exit(
        await worktreesCommand(await logOf(undefined, flags), workspace, {
          json: flags.json ?? false,
          all: flags.all ?? false,
        }, io),
      );
    });

  program.command("replay")
    .description("Re-drive recorded sessions offline: no model, no tools, no writes")
    .argument("[log]", "event log file (default: the workspace's)")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--workspace <dir>", "workspace whose log to read")
    .option("--session <id>", "replay only this session")
    .option("--verify", "exit 1 and name the first divergent seq if the replay differs")
    .option("-q, --quiet", "print only the verdict")
    .option("--store <url>", STORE_HELP)
    .action(async (log, flags) => {
      const { replayCommand } = await import("./log_commands.ts");
      exit(
        await onLog(log, flags, (path) =>
          replayCommand(path, {
            session: flags.session,
            verify: flags.verify ?? false,
            quiet: flags.quiet ?? false,
          }, io)),
      );
    });
  const log = program.command("log")
    .description("Check a log, salvage a damaged one, or count what it holds");
  log.command("check")
    .description("List every problem of a log with its line; exit 1 if there is any")
    .argument("[log]", "event log file (default: the workspace's)")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--workspace <dir>", "workspace whose log to check")
    .action(async (path, flags) => {
      const { logCheckCommand } = await import("./log_check.ts");
      exit(await logCheckCommand(await logOf(path, flags), io));
    });
  log.command("salvage")
    .description(
      "Keep the events before a log's first problem as the log and set the rest aside in a file " +
        "beside it, after backing the whole file up",
    )
    .argument("[log]", "event log file (default: the workspace's)")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--workspace <dir>", "workspace whose log to salvage")
    .action(async (path, flags) => {
      const { logSalvageCommand } = await import("./log_salvage.ts");
      exit(await logSalvageCommand(await logOf(path, flags), io));
    });
  log.command("export")
    .description(
      "Write a log to stdout as JSONL, byte for byte (from a PostgreSQL store with --store)",
    )
    .argument("[log]", "event log file (default: the workspace's)")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--workspace <dir>", "workspace whose log to export")
    .option("--store <url>", STORE_HELP)
    .action(async (path, flags) => {
      const { logExportCommand } = await import("./log_commands.ts");
      const { storeOf } = await import("./store_log.ts");
      const named = flags.store === undefined && (path ?? flags.log) !== undefined;
      const store = named ? undefined : storeOf(flags.store, env);
      exit(await logExportCommand(await logOf(path, flags), store, io));
    });
  log.command("import")
    .description("Copy a JSONL log into an empty PostgreSQL store (--store or $REIN_STORE)")
    .argument("[log]", "event log file (default: the workspace's)")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--workspace <dir>", "workspace whose log to import")
    .option("--store <url>", STORE_HELP)
    .action(async (path, flags) => {
      const { logImportCommand } = await import("./log_commands.ts");
      const { storeOf } = await import("./store_log.ts");
      exit(await logImportCommand(await logOf(path, flags), storeOf(flags.store, env), io));
    });
  log.command("stats")
    .description("Size, events by type and agent, sessions and snapshots of a log")
    .argument("[log]", "event log file (default: the workspace's)")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--workspace <dir>", "workspace whose log to count")
    .action(async (path, flags) => {
      const { logStatsCommand } = await import("./log_stats.ts");
      exit(await logStatsCommand(await logOf(path, flags), io));
    });
  const mcp = program.command("mcp")
    .description("Configure MCP servers (as claude mcp does), or serve rein itself over MCP");
  /** The project folder and ~/.claude.json of an `rein mcp` command (loaded only under it). */
  const mcpPlaceOf = async (workspace: string | undefined) => {
    const { resolveWorkspace } = await import("./paths.ts");
    const { mcpPlace } = await import("./mcp_command.ts");
    return mcpPlace(
      resolveWorkspace(workspace, env, Deno.cwd()),
      env.get("HOME"),
      env.get("CLAUDE_CONFIG_DIR"),
    );
  };
  const scopeOption = () =>
    new Option(
      "-s, --scope <scope>",
      "local (default: you, this project), project (.mcp.json) or user",
    );
  mcp.command("list")
    .description("List the project's MCP servers: scope, command or URL, and whether they start")
    .option("--workspace <dir>", "the project (default: where you are)")
    .action(async (flags) => {
      const { mcpListCommand } = await import("./mcp_command.ts");
      exit(await mcpListCommand(await mcpPlaceOf(flags.workspace), io));
    });
  mcp.command("get")
    .description("Show one MCP server's configuration")
    .argument("<name>", "the server")
    .option("--workspace <dir>", "the project (default: where you are)")
    .action(async (name, flags) => {
      const { mcpGetCommand } = await import("./mcp_command.ts");
      exit(await mcpGetCommand(name, await mcpPlaceOf(flags.workspace), io));
    });
  mcp.command("add")
    .description(
      "Add an MCP server: rein mcp add NAME -- COMMAND [ARGS…], or " +
        "rein mcp add --transport http NAME URL",
    )
    .argument("<name>", "the server's name (letters, digits, - and _)")
    .argument("<commandOrUrl>", "the command that starts it (stdio), or its URL (http, sse)")
    .argument("[args...]", "the command's arguments (put -- before the command)")
    .addOption(scopeOption())
    .addOption(
      new Option("-t, --transport <transport>", "stdio (default), http or sse"),
    )
    .option(
      "-e, --env <KEY=VALUE>",
      "an environment variable of a stdio server (repeatable)",
      collect,
    )
    .option(
      "-H, --header <header>",
      'a header of an http or sse server, "Name: value" (repeatable)',
      collect,
    )
    .option("--workspace <dir>", "the project (default: where you are)")
    .action(async (name, commandOrUrl, args, flags) => {
      const { mcpAddCommand } = await import("./mcp_command.ts");
      exit(
        await mcpAddCommand(name, commandOrUrl, args, flags, await mcpPlaceOf(flags.workspace), io),
      );
    });
  mcp.command("add-json")
    .description("Add an MCP server from its JSON entry, as .mcp.json holds it")
    .argument("<name>", "the server's name")
    .argument("<json>", 'the entry, e.g. {"type":"http","url":"https://…"}')
    .addOption(scopeOption())
    .option("--workspace <dir>", "the project (default: where you are)")
    .action(async (name, json, flags) => {
      const { mcpAddJsonCommand } = await import("./mcp_command.ts");
      exit(await mcpAddJsonCommand(name, json, flags, await mcpPlaceOf(flags.workspace), io));
    });
  mcp.command("remove")
    .description("Remove an MCP server (from the one scope that has it, or --scope's)")
    .argument("<name>", "the server")
    .addOption(scopeOption())
    .option("--workspace <dir>", "the project (default: where you are)")
    .action(async (name, flags) => {
      const { mcpRemoveCommand } = await import("./mcp_command.ts");
      exit(await mcpRemoveCommand(name, flags, await mcpPlaceOf(flags.workspace), io));
    });
  mcp.command("serve")
    .description(
      "Serve rein over MCP on stdio: read_file, glob and grep in the workspace, and the log " +
        "(sessions, state at a seq, task graph, replay --verify) as tools and resources",
    )
    .option("--workspace <dir>", "the workspace (default: where you are)")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .action(async (flags) => {
      const { defaultLogPath, resolveWorkspace, userPath } = await import("./paths.ts");
      const { mcpServe } = await import("./mcp_serve/mcp_serve.ts");
      const workspace = resolveWorkspace(flags.workspace, env, Deno.cwd());
      const log = flags.log ? userPath(flags.log, env, Deno.cwd()) : defaultLogPath(workspace);
      exit(await mcpServe({ workspace, log }));
    });
  const agent = program.commands.find((command) => command.name() === "agent");
  program.addHelpText(
    "after",
    () => `\nWithout a command, rein runs the agent:\n\n${agent?.helpInformation() ?? ""}`,
  );
  return program;
}

/** Commander's accumulator for a repeatable option. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...previous ?? [], value];
}

/** `value` as a positive integer (as `Number` reads it), or undefined. Pure. */
function parsePositiveInt(value: string): number | undefined {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

/** Options of `rein agent` whose value is a plain string, and the flag each sets. */
const STRING_OPTIONS = {
  "--model": "model",
  "--log": "log",
  "--store": "store",
  "--workspace": "workspace",
  "--resume": "resume",
  "--fork": "fork",
  "--fallback-model": "fallbackModel",
  "--settings": "settings",
} as const;

/**
 * The flags of a plain agent run, `rein [agent] [options]`, read without commander, or undefined
 * for anything else, which commander then parses: another command, help or version, an unknown
 * option, `--option=value` or `-cp`, an argument, an option value that begins with "-", an
 * invalid value (commander words those errors). For what it accepts it gives what commander
 * gives: the last of a repeated option wins, and `-p` takes the next argument as its prompt
 * unless that is an option. Pure.
 */
export function plainAgentFlags(args: readonly string[]): AgentFlags | undefined {
  const flags: AgentFlags = { outputFormat: "text" };
  for (let i = args[0] === "agent" ? 1 : 0; i < args.length; i++) {
    const arg = args[i] ?? "";
    const next = args[i + 1];
    if (arg === "-c" || arg === "--continue") {
      flags.continue = true;
    } else if (arg === "--strict-mcp-config") {
      flags.strictMcpConfig = true;
    } else if (arg === "-p" || arg === "--print") {
      if (next === undefined || (next.length > 1 && next.startsWith("-"))) {
        // commander takes a negative number ("-5") as the prompt: leave that to it.
        if (next !== undefined && /^-[\d.]/.test(next)) return undefined;
        flags.print = true;
      } else {
        flags.print = next;
        i++;
      }
    } else if (next === undefined || next.startsWith("-")) {
      return undefined;
    } else if (Object.hasOwn(STRING_OPTIONS, arg)) {
      flags[STRING_OPTIONS[arg as keyof typeof STRING_OPTIONS]] = next;
      i++;
    } else if (arg === "--mcp-config") {
      // MCP servers (repeatable): the Agent SDK passes its servers so, on every run.
      flags.mcpConfig = [...flags.mcpConfig ?? [], next];
      i++;
    } else if (arg === "--output-format" && isOutputFormat(next)) {
      flags.outputFormat = next;
      i++;
    } else if (arg === "--max-turns" && parsePositiveInt(next) !== undefined) {
      flags.maxTurns = parsePositiveInt(next);
      i++;
    } else {
      return undefined;
    }
  }
  return flags;
}

function isOutputFormat(value: string): value is AgentFlags["outputFormat"] {
  return (OUTPUT_FORMATS as readonly string[]).includes(value);
}

/**
 * The flags of `rein teammate` when `args` is exactly what the lead's process starts a teammate
 * with (cli/teammate_processes.ts: `teammate --session S --agent NAME [--workspace W] [--log L]`),
 * so that it starts without loading commander (as a plain agent run does, see
 * {@link plainAgentFlags}); undefined for anything else, which commander parses. Pure.
 */
export function teammateArgs(args: readonly string[]): TeammateFlags | undefined {
  if (args[0] !== "teammate") return undefined;
  // The lead's MCP configuration and trust follow the pairs: `--mcp-config V` repeated, then
  // `--strict-mcp-config`, then `--trust` (cli/teammate_processes.ts).
  let pairs = args;
  const last = (flag: string) => {
    if (pairs.at(-1) !== flag) return false;
    pairs = pairs.slice(0, -1);
    return true;
  };
  const trust = last("--trust");
  const strict = last("--strict-mcp-config");
  if (pairs.length % 2 !== 1) return undefined;
  const given = new Map<string, string>();
  const mcpConfig: string[] = [];
  for (let i = 1; i < pairs.length; i += 2) {
    const [name, value] = [pairs[i] ?? "", pairs[i + 1] ?? ""];
    if (name === "--mcp-config" && value !== "") {
      mcpConfig.push(value);
      continue;
    }
    const known = ["--session", "--agent", "--workspace", "--log"].includes(name);
    if (!known || given.has(name) || value === "" || value.startsWith("-")) return undefined;
    given.set(name, value);
  }
  const session = given.get("--session");
  const agent = given.get("--agent");
  if (session === undefined || agent === undefined) return undefined;
  const [workspace, log] = [given.get("--workspace"), given.get("--log")];
  return {
    session,
    agent,
    ...(workspace === undefined ? {} : { workspace }),
    ...(log === undefined ? {} : { log }),
    ...(mcpConfig.length === 0 ? {} : { mcpConfig }),
    ...(strict ? { strictMcpConfig: true } : {}),
    ...(trust ? { trust: true } : {}),
  };
}

/** Run `rein` with `args` (without the program name); resolves to the exit code. */
async function main(args: string[]): Promise<number> {
  const io = processIo();
  try {
    const teammate = teammateArgs(args);
    if (teammate) {
      const { teammateCommand } = await import("./teammate_command.ts");
      return await teammateCommand(teammate, Deno.env, io);
    }
    const flags = plainAgentFlags(args);
    if (flags) {
      // The model SDK is the largest thing the first request waits for: start loading it while
      // the rest of rein loads (the model client imports the same module, loaded once).
      import("@anthropic-ai/sdk").catch(() => {});
      const { agentCommand } = await import("./agent_command.ts");
      return await agentCommand(flags, Deno.env, io);
    }
    let code = 0;
    const program = await buildProgram(io, Deno.env, (c) => code = c);
    await program.parseAsync(args, { from: "user" });
    return code;
  } catch (error) {
    // `rein state | head`: the reader has gone, which is not an error worth a message.
    if (error instanceof Deno.errors.BrokenPipe) return 0;
    io.stderr.write(`rein: ${error instanceof Error ? error.message : String(error)}\n`);
    const wayOut = logWayOut(error);
    if (wayOut !== undefined) io.stderr.write(`${wayOut}\n`);
    return 1;
  }
}

if (import.meta.main) {
  // Not awaited at the top level: the stack trace of an error raised under an awaiting top level
  // (the first one comes early: a file that does not exist yet) includes the module's top-level
  // code, and in the bundle V8 then reparses all of it to find the frame's position (~25 ms).
  main(Deno.args).then((code) => Deno.exit(code));
}
