import type { Envelope, TurnEndReason } from "../events/event_types.ts";
import { addUsage, emptyUsage, type UsageTotals } from "../core/state/sessions.ts";
import type { TurnResult } from "../core/loop/run_turn.ts";
import { Runner } from "../core/runner/runner.ts";
import type { CommandIo } from "./io.ts";
import type { Runtime } from "./runtime.ts";
import type { ChosenSession } from "./session_choice.ts";
import { Renderer } from "./render/render.ts";
import { createStyles } from "./render/style.ts";
import { useColor } from "./io.ts";

/** Output formats of `-p`. */
export type OutputFormat = "text" | "json" | "stream-json";

/** The object `--output-format json` prints (and `stream-json` ends with). */
export interface HeadlessResult {
  type: "result";
  subtype: "success" | "error_max_turns" | "error_during_execution" | "error_cancelled";
  is_error: boolean;
  result: string;
  session_id: string;
  num_turns: number;
  usage: UsageTotals;
  duration_ms: number;
}

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
    /** Events of this session appended before the run (its `session.started`), for stream-json. */
    opening?: readonly Envelope[];
  },
  io: CommandIo,
): Promise<number> {
  const started = performance.now();
  const { session } = chosen;
  const usage = emptyUsage();
  const progress = new Renderer(
    io.stderr,
    createStyles(useColor(io.stderrIsTerminal)),
    (name) => runtime.harness.findTool(name),
  );
  if (options.format === "stream-json") {
    for (const event of options.opening ?? []) io.stdout.write(`${JSON.stringify(event)}\n`);
  }
  const unsubscribe = runtime.harness.store.subscribe((event: Envelope) => {
    if (event.session !== session.id) return;
    if (options.format === "stream-json") io.stdout.write(`${JSON.stringify(event)}\n`);
    if (event.type === "model.failed" || event.type === "turn.ended") progress.event(event);
    if (event.type === "model.responded") addUsage(usage, event.data.usage);
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
      const run = { signal, maxTurns: options.maxTurns };
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
    sessionId: session.id,
    usage,
    durationMs: Math.round(performance.now() - started),
  });
  const text = summary.result;
  if (options.format === "text") {
    if (reason === "completed") io.stdout.write(text.endsWith("\n") || !text ? text : `${text}\n`);
  } else {
    io.stdout.write(`${JSON.stringify(summary)}\n`);
  }
  if (reason !== "completed") {
    progress.line(
      `Session ${session.id} is saved; continue it with: rein agent --resume ${session.id}`,
    );
  }
  return exitCode(reason);
}

/** What a headless run ended with, as {@link headlessResult} reads it. */
export interface HeadlessOutcome {
  /** Why the turn ended; `completed` when there was nothing to continue. */
  reason: TurnEndReason;
  /** Model rounds of the run (`num_turns`). */
  rounds: number;
  /** The turn's detail for a failed, cancelled or stopped turn. */
  message?: string;
  /** The assistant's last text, the result of a completed run. */
  lastText: string;
  sessionId: string;
  usage: UsageTotals;
  durationMs: number;
}

/**
 * The result object of a headless run: `success` for a completed turn, else an error subtype
 * (`error_max_turns`, `error_cancelled`, or `error_during_execution` for a failed or interrupted
 * turn) whose `result` is the turn's message, or its reason when it has none. Pure.
 */
export function headlessResult(outcome: HeadlessOutcome): HeadlessResult {
  const { reason } = outcome;
  return {
    type: "result",
    subtype: SUBTYPES[reason],
    is_error: reason !== "completed",
    result: reason === "completed" ? outcome.lastText : outcome.message ?? reason,
    session_id: outcome.sessionId,
    num_turns: outcome.rounds,
    usage: outcome.usage,
    duration_ms: outcome.durationMs,
  };
}

/** The exit code of a headless run: 0 when completed, 130 when cancelled, else 1. Pure. */
export function exitCode(reason: TurnEndReason): number {
  return reason === "completed" ? 0 : reason === "cancelled" ? 130 : 1;
}

const SUBTYPES: Record<TurnEndReason, HeadlessResult["subtype"]> = {
  completed: "success",
  max_turns: "error_max_turns",
  cancelled: "error_cancelled",
  failed: "error_during_execution",
  interrupted: "error_during_execution",
};
