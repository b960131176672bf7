import { Command, InvalidArgumentError, Option } from "@commander-js/extra-typings";
import { type CommandIo, processIo } from "./io.ts";
import type { RuntimeEnv } from "./paths.ts";

/** Build the `rein` command line. `run` receives each command's exit code. */
export function buildProgram(io: CommandIo, env: RuntimeEnv, exit: (code: number) => void) {
  const program = new Command("rein")
    .description("An event-sourced coding agent: every step is logged, any run can be replayed")
    .version("0.1.0")
    .showHelpAfterError();

  program.command("agent", { isDefault: true })
    .description("Run the agent: interactive, or headless with -p")
    .option("-p, --print [prompt]", "headless: run one prompt (or stdin), print the result, exit")
    .addOption(
      new Option("--output-format <format>", "with -p: text, json or stream-json")
        .choices(["text", "json", "stream-json"] as const).default("text" as const),
    )
    .option("--model <model>", "model id (default: $ANTHROPIC_MODEL or claude-sonnet-5-5)")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--workspace <dir>", "directory the agent works in (default: where you started it)")
    .option("--resume <id>", "reopen a session by id (a unique prefix is enough)")
    .option("-c, --continue", "reopen the latest session of the log")
    .option("--fork <id@seq>", "start a new session from another one's history up to seq")
    .option("--max-turns <n>", "stop a run after n model turns", positiveInt)
    .action(async (flags) => {
      const { agentCommand } = await import("./agent_command.ts");
      exit(await agentCommand(flags, env, io));
    });

  program.command("sessions")
    .description("List the sessions of the workspace's log")
    .option("--log <path>", "event log (default: <workspace>/.rein/events.jsonl)")
    .option("--workspace <dir>", "workspace whose log to read")
    .option("--json", "print JSON")
    .action(async (flags) => {
      const { defaultLogPath, resolveWorkspace, userPath } = await import("./paths.ts");
      const { sessionsCommand } = await import("./log_commands.ts");
      const log = flags.log
        ? userPath(flags.log, env, Deno.cwd())
        : defaultLogPath(resolveWorkspace(flags.workspace, env, Deno.cwd()));
      exit(await sessionsCommand(log, flags.json ?? false, io));
    });

  program.command("state")
    .description("Print the state projected from a log, at its end or at a seq")
    .argument("<log>", "event log file")
    .option("--at <seq>", "fold only up to this seq", positiveInt)
    .option("--json", "print the whole state as JSON")
    .action(async (log, flags) => {
      const { stateCommand } = await import("./log_commands.ts");
      const { userPath } = await import("./paths.ts");
      const path = userPath(log, env, Deno.cwd());
      exit(await stateCommand(path, { at: flags.at, json: flags.json ?? false }, io));
    });

  program.command("replay")
    .description("Re-drive recorded sessions offline: no model, no tools, no writes")
    .argument("<log>", "event log file")
    .option("--session <id>", "replay only this session")
    .option("--verify", "exit 1 and name the first divergent seq if the replay differs")
    .option("-q, --quiet", "print only the verdict")
    .action(async (log, flags) => {
      const { replayCommand } = await import("./log_commands.ts");
      const { userPath } = await import("./paths.ts");
      exit(
        await replayCommand(userPath(log, env, Deno.cwd()), {
          session: flags.session,
          verify: flags.verify ?? false,
          quiet: flags.quiet ?? false,
        }, io),
      );
    });
  return program;
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    throw new InvalidArgumentError(`"${value}" is not a positive integer`);
  }
  return n;
}

if (import.meta.main) {
  const io = processIo();
  let code = 0;
  const program = buildProgram(io, Deno.env, (c) => code = c);
  try {
    await program.parseAsync(Deno.args, { from: "user" });
  } catch (error) {
    io.stderr.write(`rein: ${error instanceof Error ? error.message : String(error)}\n`);
    code = 1;
  }
  Deno.exit(code);
}
