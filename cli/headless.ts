import type { Envelope } from "../events/event_types.ts";
import {
  assistantLine,
  exitCode,
  headlessResult,
  initLine,
  toolResultLine,
} from "./claude_output.ts";
import { addUsage, agentOf, emptyUsage, type UsageTotals } from "../core/state/sessions.ts";
import type { TurnResult } from "../core/loop/run_turn.ts";
import { Runner } from "../core/runner/runner.ts";
import type { CommandIo } from "./io.ts";
import type { Runtime } from "./runtime.ts";
import type { ChosenSession } from "./session_choice.ts";
import { Renderer } from "./render/render.ts";
import { createStyles } from "./render/style.ts";
import { useColor } from "./io.ts";

/**
 * Output formats of `-p`: the answer as text, Claude Code's `json` result or `stream-json` lines,
 * or rein's own `events` as they are appended.
 */
export type OutputFormat = "text" | "json" | "stream-json" | "events";

/**
 * Run one prompt (or the continuation of a reopened session) without a terminal UI and print
 * the outcome in the chosen format. Returns the exit code: 0 on success, 1 on failure or
 * --max-turns, 130 when cancelled with Ctrl-C.
 */
export async function runHeadless(
  runtime: Runtime,
  chosen: ChosenSession,
  prompt: string | undefined,
  options: {
    format: OutputFormat;
    maxTurns: number | null;
    maxBudgetUsd?: number;
    /** Events of this session appended before the run (its `session.started`), for `events`. */
    opening?: readonly Envelope[];
    /** Which credential the model client uses, as `init` reports it. */
    apiKeySource: string;
  },
  io: CommandIo,
): Promise<number> {
  const started = performance.now();
  const { session } = chosen;
  const { harness } = runtime;
  const usageByModel: Record<string, UsageTotals> = {};
  let stopReason: string | null = null;
  let apiMs = 0;
  let asked = 0;
  const progress = new Renderer(
    io.stderr,
    createStyles(useColor(io.stderrIsTerminal)),
    (name) => harness.findTool(name),
    { maxAttempts: runtime.maxAttempts },
  );
  const print = (line: unknown) => io.stdout.write(`${JSON.stringify(line)}\n`);
  if (options.format === "events") { for (const event of options.opening ?? []) print(event); }
  if (options.format === "stream-json") {
    print(initLine({
      cwd: session.view.workspace,
      sessionId: session.id,
      tools: harness.deps.pool({ state: harness.state, session: session.id, agent: session.agent })
        .tools.map((tool) => tool.name),
      model: session.conversation.model,
      apiKeySource: options.apiKeySource,
    }));
  }
  const unsubscribe = harness.store.subscribe((event: Envelope) => {
    if (event.session !== session.id) return;
    if (options.format === "events") print(event);
    if (PROGRESS.has(event.type)) progress.event(event);
    if (event.type === "model.requested") asked = performance.now();
    if (event.type === "model.failed" || event.type === "model.cancelled") {
      apiMs += performance.now() - asked;
    }
    if (event.type === "model.responded") {
      apiMs += performance.now() - asked;
      stopReason = event.data.stopReason;
      const model = agentOf(session.view, event.agent).model;
      addUsage(usageByModel[model] ??= emptyUsage(), event.data.usage);
      if (options.format === "stream-json") print(assistantLine(event));
    }
    if (event.type === "tool.completed" && options.format === "stream-json") {
      print(toolResultLine(event));
    }
  });
  if (!chosen.reopened && prompt === undefined) {
    unsubscribe();
    throw new Error('No prompt: pass one with -p "…" or pipe it on standard input');
  }
  const runner = new Runner();
  const onInterrupt = () => runner.cancelAll();
  Deno.addSignalListener("SIGINT", onInterrupt);
  let result: TurnResult | null;
  try {
    const { reopened } = chosen;
    const active = runner.run(session, ({ signal }) => {
      const budget = options.maxBudgetUsd;
      const run = {
        signal,
        maxTurns: options.maxTurns,
        ...(budget === undefined ? {} : { maxBudgetUsd: budget }),
      };
      return reopened
        ? session.resume(reopened, prompt, run)
        : session.prompt(prompt as string, run);
    });
    result = await active.done;
    if (result === null) progress.line(`Nothing to continue in session ${session.id}`);
  } finally {
    Deno.removeSignalListener("SIGINT", onInterrupt);
    unsubscribe();
  }
  const reason = result?.reason ?? "completed";
  const summary = headlessResult({
    reason,
    rounds: result?.rounds ?? 0,
    ...(result?.message === undefined ? {} : { message: result.message }),
    lastText: session.lastText,
    stopReason,
    sessionId: session.id,
    usageByModel,
    durationMs: Math.round(performance.now() - started),
    durationApiMs: Math.round(apiMs),
  });
  const text = summary.result;
  if (options.format === "text") {
    if (reason === "completed") io.stdout.write(text.endsWith("\n") || !text ? text : `${text}\n`);
  } else {
    print(summary);
  }
  if (reason !== "completed") {
    progress.line(
      `Session ${session.id} is saved; continue it with: rein agent --resume ${session.id}`,
    );
  }
  return exitCode(reason);
}

/** Events shown on stderr while a headless run works: retries, model switches, how it ended. */
const PROGRESS: ReadonlySet<string> = new Set(["model.failed", "model.switched", "turn.ended"]);
