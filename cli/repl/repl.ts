import type { RunOptions, TurnResult } from "../../core/loop/run_turn.ts";
import { Runner } from "../../core/runner/runner.ts";
import { describeModels } from "../../core/models/catalogue.ts";
import { modelChoice } from "../model_choice.ts";
import { costReport } from "./cost_report.ts";
import { promptHistory } from "./history.ts";
import { recap } from "./recap.ts";
import { contextReport, turnStatus } from "./status.ts";
import { configOf } from "../../core/compaction/compaction_mechanism.ts";
import type { CommandIo } from "../io.ts";
import { useColor } from "../io.ts";
import { LineReader } from "./_line_reader.ts";
import { parseAnswer, questionLines } from "./permission_prompt.ts";
import { runStatusLine, statusLineInput, statusLineSetting } from "./status_line.ts";
import { REIN_VERSION } from "../version.ts";
import { recordedSettings } from "../../core/settings/recorded_settings.ts";
import { permissionsReport } from "./permissions_report.ts";
import { pluginsReport } from "./plugins_report.ts";
import { mcpReport, mcpViewOf } from "../../core/mcp/mod.ts";
import { permissionsOf } from "../../core/permissions/session_permissions.ts";
import { PERMISSION_MODES } from "../../core/settings/settings.ts";
import { memoryReport, saveNote } from "../../core/memory/mod.ts";
import { jobsOf, jobsReport } from "../../core/jobs/mod.ts";
import { invokeSlash, slashHelp, withCommandModel } from "../slash_command.ts";
import type { PermissionAnswer } from "../../core/permissions/permissions_mechanism.ts";
import { WorkingLine } from "./_working_line.ts";
import { Renderer } from "../render/render.ts";
import type { Runtime } from "../runtime.ts";
import { type ChosenSession, claim, newSessionSetup, sessionOptionsOf } from "../session_choice.ts";
import { createStyles } from "../render/style.ts";
import { runWake } from "../../core/runner/wake.ts";
import { TeamDesk } from "./team_desk.ts";
import { attachMentions } from "../mcp_mentions.ts";

const HELP = [
  "Commands:",
  "  /help      show this help",
  "  /session   show the session id and the log file",
  "  /new       start a new session in this workspace",
  "  /model [m] switch the model (an id or opus, sonnet, haiku, fable); lists them without one",
  "  /cost      show this session's tokens and dollars",
  "  /context   show how the context window is spent, and where it is compacted",
  "  /compact [focus]  summarise the conversation so far to free context",
  "  /memory    show the instructions and memory loaded, and from where",
  "  /plugin    list the plugins in use (--plugin-dir) and what each contributes",
  "  /mcp       list the MCP servers: scope, how each is reached, its state and tools",
  "  # note     save a note to memory (.rein/memory/MEMORY.md)",
  "  /<name> [args]  run a custom command (.claude/commands/) or a skill by name (listed below)",
  "  /permissions [mode]  show the mode and the rules with their files; or switch the mode",
  "  /jobs      list this session's background jobs (bash with run_in_background)",
  "  /team [stop NAME]  list the teammates (status, model, cost); or stop one",
  "  @name text send your own words to teammate name, as the lead's mail",
  "  /clear     start a new session (as /new)",
  "  /exit      leave (Ctrl-D also leaves)",
  "Ctrl-C cancels the running turn; the session stays usable.",
].join("\n");

/**
 * The interactive session: read a prompt, run the turn with streamed output, repeat. Ctrl-C
 * cancels the running turn (recorded as an event) or clears the prompt; Ctrl-D or /exit leaves
 * (Ctrl-D during a turn cancels it first). Returns the exit code.
 */
export async function runRepl(
  runtime: Runtime,
  chosen: ChosenSession,
  options: {
    maxTurns: number | null;
    maxBudgetUsd?: number;
    /** A prompt to run as soon as the session is open (`rein "fix the bug"`). */
    firstPrompt?: string;
    model: string;
    maxTokens: number;
  },
  io: CommandIo,
): Promise<number> {
  const styles = createStyles(useColor(io.stdoutIsTerminal));
  const working = new WorkingLine(
    io.stdout,
    io.stdoutIsTerminal,
    (seconds) => styles.dim(`✻ Working… ${seconds}s · Ctrl-C to cancel`),
  );
  const { harness } = runtime;
  const renderer = new Renderer(working, styles, (name) => harness.findTool(name), {
    maxAttempts: runtime.maxAttempts,
    ...(io.stdoutIsTerminal ? { markdownWidth: terminalWidth() } : {}),
  });
  let session = chosen.session;
  let lease = chosen.lease;
  const onText = (delta: string) => renderer.text(delta);
  const reader = new LineReader(io.stdinIsTerminal, working, promptHistory(harness.state));
  const team = new TeamDesk({
    harness,
    renderer,
    reader,
    styles,
    desk: () => ({ session: session.id, lead: session.agent }),
  });
  const unsubscribe = harness.store.subscribe((event) => {
    // Prompts are echoed as typed; a refused one is shown with its reason.
    const echoed = event.type === "user.prompted" && event.data.refused === undefined;
    if (event.session !== session.id || echoed) return;
    // A teammate's work shows as a dim line per call, its mail and stops as they come.
    if (team.shows(event)) return reader.showAbove(() => team.show(event));
    // A subagent's work shows as a line per call under its task call; what happens while the
    // person is at the prompt (a background job ends) shows above it.
    reader.showAbove(() =>
      event.agent !== session.agent ? renderer.childEvent(event) : renderer.event(event)
    );
  });
  const runner = new Runner(harness);
  /** The wake sources' live side (cron's clock), from the first wait at the prompt on. */
  let sources: { stop(): void } | undefined;
  let cancel: (() => void) | null = null;
  const interrupt = () => {
    if (cancel) cancel();
    else reader.interruptInput(styles.dim("To leave, press Ctrl-D or type /exit"));
  };
  reader.onInterrupt = interrupt;
  let asking = Promise.resolve();
  runtime.asker.current = (question, signal) => {
    // One question at a time: agents running at once wait their turn.
    const answer = asking.then(async (): Promise<PermissionAnswer> => {
      working.stop();
      renderer.gap();
      const call = renderer.callLines(question.tool, question.input);
      for (const line of questionLines(question, call, styles)) renderer.line(line);
      try {
        while (true) {
          const line = await reader.question(styles.bold("❯ "), signal);
          if (line === null) return { answer: "no", cancelled: true };
          const parsed = parseAnswer(line);
          if (parsed) return parsed;
          renderer.line(styles.dim('Answer 1, 2 or 3 (3 with a reason: "3 use pnpm instead")'));
        }
      } finally {
        if (!signal.aborted) working.start();
      }
    });
    asking = answer.then(() => {}, () => {});
    return answer;
  };
  /** One question at a time: a teammate's waits for the lead's own, and the other way round. */
  const inTurn = (ask: () => Promise<unknown>) => {
    const asked = asking.then(async () => {
      working.stop();
      try {
        await ask();
      } finally {
        if (cancel !== null) working.start();
      }
    });
    asking = asked.then(() => {}, () => {});
    return asked;
  };
  /** While a turn runs: a teammate's permission question is asked as the lead's own are. */
  const teammateQuestions = async (signal: AbortSignal) => {
    // Until the wake sources follow the log (from the first prompt on), follow it here.
    if (sources === undefined) void team.follow(signal);
    try {
      while (!signal.aborted) {
        const question = await team.next(false, signal);
        await inTurn(() => team.ask(question, signal));
      }
    } catch {
      // The turn ended: what is still unanswered is asked at the prompt.
    }
  };
  Deno.addSignalListener("SIGINT", interrupt);
  const run = async (work: (options: RunOptions) => Promise<TurnResult | null>) => {
    const active = runner.run(
      session,
      ({ signal }) =>
        work({
          signal,
          maxTurns: options.maxTurns,
          onText,
          ...(options.maxBudgetUsd === undefined ? {} : { maxBudgetUsd: options.maxBudgetUsd }),
        }),
    );
    cancel = () => {
      reader.discardQueued();
      active.cancel();
    };
    working.start();
    const turn = new AbortController();
    void teammateQuestions(turn.signal);
    try {
      const result = await active.done;
      if (result !== null && io.stdoutIsTerminal) {
        renderer.gap();
        renderer.line(styles.dim(turnStatus(session.conversation)));
      }
      return result;
    } finally {
      turn.abort();
      working.stop();
      cancel = null;
    }
  };
  renderer.line(
    `${styles.bold("rein")} ${styles.dim(`· ${session.view.model} · ${runtime.workspace}`)}\n` +
      styles.dim(`session ${session.id} · /help for commands · Ctrl-D or /exit to leave`),
  );
  try {
    if (chosen.reopened) {
      const earlier = recap(session.conversation);
      if (earlier.length > 0) {
        renderer.gap();
        renderer.line(styles.dim(earlier.join("\n").trimEnd()));
      }
      if (session.hasUnfinishedWork) renderer.line(styles.dim("Continuing the unfinished turn…"));
      await run((run) =>
        session.resume(chosen.reopened ?? "resume", undefined, {
          ...run,
          settings: runtime.settings,
          files: runtime.files,
        })
      );
    }
    if (options.firstPrompt !== undefined) {
      const first = options.firstPrompt;
      renderer.gap();
      renderer.line(styles.bold(`> ${first}`));
      await attachMentions(harness, session, first, (line) => renderer.line(styles.yellow(line)));
      await run((run) => session.prompt(first, run));
    }
    // Claude Code's statusLine (the person's, or a trusted folder's): shown above each prompt.
    const setting = statusLineSetting(recordedSettings(runtime.settings).settings.other);
    if (typeof setting === "string") renderer.line(styles.red(setting));
    const statusLine = typeof setting === "string" ? undefined : setting;
    // Cron: due jobs fire while the REPL runs (during turns too, joining the turn).
    sources = runner.startWakeSources({
      scope: () => ({ session: session.id, agent: session.agent }),
      tickMs: runtime.cronTickMs,
      onError: (e) => renderer.line(styles.red(String(e))),
    });
    let typed: Promise<string | null> | undefined;
    while (true) {
      renderer.gap();
      if (typed === undefined && statusLine !== undefined) {
        const shown = await runStatusLine(
          statusLine,
          statusLineInput(session.view, runtime.workspace, REIN_VERSION),
          runtime.workspace,
        );
        if (shown !== undefined) renderer.line(shown);
      }
      typed ??= reader.next(styles.bold("> "));
      const idle = new AbortController();
      // What wakes the idle agent (a cron firing, a background job's end) starts a turn as a
      // prompt typed at the prompt would: a firing's text, or the job's notification.
      const next = await Promise.race([
        typed,
        // What a teammate waits on the person for (a call to allow, a plan) comes first.
        team.next(true, idle.signal).then(
          (question) => ({ question }),
          () => new Promise<never>(() => {}),
        ),
        runner.nextWake(session, idle.signal).then(
          (wake) => ({ wake }),
          () => new Promise<never>(() => {}),
        ),
      ]);
      idle.abort();
      if (next !== null && typeof next === "object" && "question" in next) {
        reader.pause();
        typed = undefined;
        await team.ask(next.question, new AbortController().signal);
        continue;
      }
      // A teammate's question that came with the wake (a plan's mail) is asked first.
      if (next !== null && typeof next === "object" && team.pending(true) !== undefined) continue;
      if (next !== null && typeof next === "object") {
        reader.pause();
        typed = undefined;
        const { wake } = next;
        const what = runner.wokenBy(session, wake);
        renderer.line(styles.bold(`> ${wake.prompt ?? `(woken by ${what})`}`));
        await run((run) => runWake(session, wake, run));
        continue;
      }
      typed = undefined;
      const line = next;
      if (line === null) break;
      renderer.afterInput();
      const input = line.trim();
      if (!input) continue;
      // `@alice text` to a teammate of the session (another `@…` is a prompt, as before).
      if (input.startsWith("@") && team.mentions(input)) {
        const error = await team.mention(input);
        if (error !== undefined) renderer.line(error);
        continue;
      }
      if (input.startsWith("#")) {
        // A note to remember, as in Claude Code: saved to the memory index, on the record.
        try {
          const noted = await saveNote(input, { workspace: runtime.workspace });
          await harness.store.append([{
            type: "memory.noted",
            data: noted,
            session: session.id,
            agent: session.agent,
          }]);
          renderer.line(styles.dim(`Saved to ${noted.path}`));
        } catch (error) {
          renderer.line(styles.red((error as Error).message));
        }
        continue;
      }
      if (input.startsWith("/")) {
        const command = input.split(/\s+/)[0];
        if (command === "/exit" || command === "/quit") break;
        if (command === "/help") {
          renderer.line([HELP, ...slashHelp(harness, session.id)].join("\n"));
        } else if (command === "/session") {
          renderer.line(`session ${session.id}\nlog     ${runtime.logPath}`);
        } else if (command === "/cost") {
          renderer.line(costReport(session.view));
        } else if (command === "/model") {
          const name = input.slice(command.length).trim();
          if (!name) {
            renderer.line(
              `model ${session.conversation.model}\n\n${describeModels().join("\n")}`,
            );
          } else {
            try {
              const choice = modelChoice(name);
              await session.switchModel(choice.model, choice.maxTokens);
            } catch (error) {
              renderer.line(styles.red((error as Error).message));
            }
          }
        } else if (command === "/team") {
          const shown = await team.command(input.slice(command.length).trim());
          if (shown !== undefined) renderer.line(shown);
        } else if (command === "/jobs") {
          renderer.line(
            jobsReport(
              jobsOf(harness.state, session.id),
              (job) => Date.now() - Date.parse(job.startedAt),
            ),
          );
        } else if (command === "/memory") {
          renderer.line(memoryReport(harness.state, session.id));
        } else if (command === "/mcp") {
          const entries = mcpViewOf(harness.state, session.id)?.configured ??
            runtime.mcp?.setup.servers.map((server) => server.entry) ?? [];
          renderer.line(mcpReport(entries, runtime.mcp?.statuses() ?? []));
        } else if (command === "/plugin" || command === "/plugins") {
          renderer.line(pluginsReport(harness.state, session.id, runtime.plugins));
        } else if (command === "/permissions") {
          const mode = input.slice(command.length).trim();
          if (mode === "") {
            renderer.line(permissionsReport(permissionsOf(harness.state, session.id)));
          } else if (!(PERMISSION_MODES as readonly string[]).includes(mode)) {
            renderer.line(
              styles.red(`Unknown mode "${mode}": use one of ${PERMISSION_MODES.join(", ")}`),
            );
          } else {
            // From outside the loop, like a person's answer: recorded, and fed again in replay.
            await harness.store.append([{
              type: "permission.mode_changed",
              data: { mode },
              session: session.id,
              agent: session.agent,
            }]);
          }
        } else if (command === "/context") {
          renderer.line(
            contextReport(
              session.nextRequest(),
              session.conversation,
              configOf(harness.state, session.id, session.agent),
            ),
          );
        } else if (command === "/compact") {
          const focus = input.slice(command.length).trim();
          const outcome = await session.compact(focus || undefined, new AbortController().signal);
          if (!outcome.compacted) renderer.line(styles.yellow(`Not compacted: ${outcome.reason}`));
        } else if (command === "/new" || command === "/clear") {
          // A new session keeps the current model and what the user asked of the session
          // (fallback, thinking, system prompt changes); its id is always a fresh one.
          const { model, maxTokens } = session.conversation;
          const setup = {
            ...newSessionSetup(runtime, model, maxTokens, crypto.randomUUID()),
            ...sessionOptionsOf(session.view),
          };
          await session.end("clear", new AbortController().signal);
          const next = await claim(runtime, setup.id);
          lease.release();
          lease = next;
          session = await harness.startSession(setup);
          renderer.line(styles.dim(`new session ${session.id}`));
        } else {
          // A skill or a custom command invoked by name (rein's own commands come first): on
          // the record, then its prompt (with the arguments, a command's shell output and
          // files) is the prompt.
          const outcome = await invokeSlash(harness, session, input, new AbortController().signal);
          if (outcome.kind === "unknown") {
            renderer.line(styles.red(`Unknown command "${command}". Type /help for the list`));
            continue;
          }
          // A refused command is on the record: its line (red, saying why) shows it.
          if (outcome.kind === "refused") continue;
          const { prompt } = outcome;
          await withCommandModel(
            session,
            outcome.model,
            () => run((run) => session.prompt(prompt, run)),
          );
        }
        continue;
      }
      // `@server:uri`: the resource read now, recorded, and after the prompt in its message.
      await attachMentions(harness, session, input, (line) => renderer.line(styles.yellow(line)));
      await run((run) => session.prompt(input, run));
    }
    await session.end("prompt_input_exit", new AbortController().signal);
  } finally {
    sources?.stop();
    Deno.removeSignalListener("SIGINT", interrupt);
    lease.release();
    reader.close();
    unsubscribe();
  }
  return 0;
}

/** Columns of the terminal, 80 when it cannot be told. */
function terminalWidth(): number {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}
