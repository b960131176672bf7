import type { Envelope, PermissionDecided } from "../events/event_types.ts";
import { pluginsOf } from "../core/plugins/plugin_set.ts";
import { toClaudeCall } from "../core/hooks/claude_tool_names.ts";
import {
  assistantLine,
  exitCode,
  headlessResult,
  initLine,
  type PermissionDenial,
  toolResultLine,
} from "./claude_output.ts";
import { addUsage, agentOf, emptyUsage, type UsageTotals } from "../core/state/sessions.ts";
import type { TurnResult } from "../core/loop/run_turn.ts";
import { Runner } from "../core/runner/runner.ts";
import type { AgentLoop } from "../core/loop/agent_loop.ts";
import { MODELS } from "../core/models/catalogue.ts";
import { PERMISSION_MODES } from "../core/settings/settings.ts";
import { permissionsOf } from "../core/permissions/session_permissions.ts";
import { modelChoice } from "./model_choice.ts";
import type { CommandIo } from "./io.ts";
import type { Runtime } from "./runtime.ts";
import type { ChosenSession } from "./session_choice.ts";
import { Renderer } from "./render/render.ts";
import { createStyles } from "./render/style.ts";
import { useColor } from "./io.ts";
import { type ControlReply, StdioAsker } from "./_stdio_asker.ts";
import { attachMentions } from "./mcp_mentions.ts";
import {
  invokeSlash,
  type SlashCommandInfo,
  slashInfo,
  slashNames,
  withCommandModel,
} from "./slash_command.ts";

/**
 * Output formats of `-p`: the answer as text, Claude Code's `json` result or `stream-json` lines,
 * or rein's own `events` as they are appended.
 */
export type OutputFormat = "text" | "json" | "stream-json" | "events";

/** What a headless run is given beyond the session. */
export interface HeadlessOptions {
  format: OutputFormat;
  maxTurns: number | null;
  maxBudgetUsd?: number;
  /** Events of this session appended before the run (its `session.started`), for `events`. */
  opening?: readonly Envelope[];
  /** Which credential the model client uses, as `init` reports it. */
  apiKeySource: string;
  /**
   * With stream-json input: calls that need permission are asked of the program on the other
   * end (`can_use_tool` control requests, `--permission-prompt-tool stdio`).
   */
  asks?: boolean;
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
  options: HeadlessOptions,
  io: CommandIo,
): Promise<number> {
  const { session } = chosen;
  if (!chosen.reopened && prompt === undefined) {
    throw new Error('No prompt: pass one with -p "…" or pipe it on standard input');
  }
  // stream-json's init line lists the MCP servers as the first request will find them.
  if (options.format === "stream-json") await runtime.mcp?.started();
  const output = new HeadlessOutput(runtime, session, options, io);
  const runner = new Runner(runtime.harness);
  /** Where this run starts in the log: the background jobs it starts come after. */
  const startSeq = runtime.harness.state.lastSeq;
  /** Aborts the session's end (its wait for teammates to shut down) on a Ctrl-C while it ends. */
  const ending = new AbortController();
  let endingNow = false;
  const onInterrupt = () => {
    runner.cancelAll();
    if (endingNow) ending.abort();
  };
  Deno.addSignalListener("SIGINT", onInterrupt);
  let result: TurnResult | null;
  try {
    const { reopened } = chosen;
    // `-p "/name args"`: a custom command or a skill of the session, recorded, becomes the prompt
    // (a reopened session's, from the files its resume records).
    const slash = prompt?.trimStart().startsWith("/")
      ? await invokeSlash(
        runtime.harness,
        session,
        prompt,
        new AbortController().signal,
        reopened ? runtime.files : undefined,
      )
      : undefined;
    // A refused command is on the record; its progress line says why.
    if (slash?.kind === "refused") return 1;
    const text = slash?.kind === "prompt" ? slash.prompt : prompt;
    // `@server:uri` in the prompt: the resource read now, recorded, and after the prompt.
    if (slash === undefined && text !== undefined) {
      await attachMentions(runtime.harness, session, text, (line) => output.progress.line(line));
    }
    output.begin();
    const active = runner.run(session, ({ signal }) => {
      const run = runOptions(signal, options);
      return reopened
        ? withCommandModel(
          session,
          slash?.kind === "prompt" ? slash.model : undefined,
          () =>
            session.resume(reopened, text, {
              ...run,
              settings: runtime.settings,
              files: runtime.files,
            }),
        )
        : withCommandModel(
          session,
          slash?.kind === "prompt" ? slash.model : undefined,
          () => session.prompt(text as string, run),
        );
    });
    result = await active.done;
    if (result === null) output.progress.line(`Nothing to continue in session ${session.id}`);
    // Background jobs the run started and that still run: wait for them, then answer.
    result = await runner.settle(
      session,
      startSeq,
      result,
      (signal) => runOptions(signal, options),
      (line) => output.progress.line(line),
    );
  } finally {
    // The session ends on the record even when the run failed (SessionEnd hooks run too); its
    // live teammates are asked to shut down first, and waited for (see the protocols).
    endingNow = true;
    await session.end("other", ending.signal).catch(() => {});
    Deno.removeSignalListener("SIGINT", onInterrupt);
    output.close();
  }
  return output.finish(result);
}

/**
 * `--input-format stream-json`, as the Claude Agent SDK drives Claude Code: user messages arrive
 * as JSON lines on standard input and each runs a turn whose messages and result are printed as
 * `stream-json`; control requests are answered (`initialize`; `interrupt` cancels the running
 * turn; `set_model` and `set_permission_mode` switch the model and the mode between turns;
 * others get an error response). The session stays open until standard input closes. Returns
 * the exit code of the last turn (0 when there was none, or when the program interrupted it).
 */
export async function runStreamInput(
  runtime: Runtime,
  chosen: ChosenSession,
  options: HeadlessOptions,
  lines: AsyncIterable<string>,
  io: CommandIo,
): Promise<number> {
  const { session } = chosen;
  await runtime.mcp?.started();
  const output = new HeadlessOutput(runtime, session, { ...options, format: "stream-json" }, io);
  const runner = new Runner();
  const asker = options.asks
    ? new StdioAsker((line) => output.print(line), runtime.workspace)
    : undefined;
  if (asker) runtime.asker.current = asker.ask;
  // Prompts and changes of model or permission mode take effect between turns, in the order they
  // came; an interrupt and the other control requests are answered at once.
  const queue: (string | Extract<InputLine, { kind: "control" }>)[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let code = 0;
  /** Whether the program interrupted the running turn (then its cancellation is no failure). */
  let interrupted = false;
  let reopened = chosen.reopened;
  const reading = (async () => {
    for await (const line of lines) {
      if (!line.trim()) continue;
      const message = parseInputLine(line);
      if (message.kind === "user") queue.push(message.text);
      else if (message.kind === "control" && BETWEEN_TURNS.has(message.subtype)) {
        queue.push(message);
      } else if (message.kind === "control") {
        if (message.subtype === "interrupt") interrupted = true;
        output.print(controlResponse(message, runner, slashInfo(runtime.harness, session.id)));
      } else if (message.kind === "reply") {
        if (!asker?.receive(message)) {
          output.progress.line(`Ignored a control_response to no request: "${message.requestId}"`);
        }
      } else if (message.error) output.progress.line(message.error);
      wake?.();
    }
    asker?.close();
    ended = true;
    wake?.();
  })();
  try {
    while (true) {
      const next = queue.shift();
      if (next === undefined) {
        if (ended) break;
        await new Promise<void>((resolve) => wake = resolve);
        continue;
      }
      if (typeof next !== "string") {
        output.print(
          next.subtype === "set_model"
            ? await switchModel(next, session)
            : await switchMode(next, runtime, session),
        );
        continue;
      }
      output.begin();
      const how = reopened;
      reopened = undefined;
      const left = options.maxBudgetUsd === undefined
        ? {}
        : { maxBudgetUsd: Math.max(0, options.maxBudgetUsd - output.spentUsd) };
      // A user message `/name args` runs a custom command or a skill (a reopening one's from the
      // files its resume records).
      const slash = next.trimStart().startsWith("/")
        ? await invokeSlash(
          runtime.harness,
          session,
          next,
          new AbortController().signal,
          how ? runtime.files : undefined,
        )
        : undefined;
      if (slash?.kind === "refused") {
        code = 1;
        continue;
      }
      const text = slash?.kind === "prompt" ? slash.prompt : next;
      if (slash === undefined) {
        await attachMentions(runtime.harness, session, text, (line) => output.progress.line(line));
      }
      const active = runner.run(session, ({ signal }) => {
        // One budget for the whole input: each turn gets what the earlier ones left.
        const run = runOptions(signal, { ...options, ...left });
        // The first message of a reopened session resumes it: unfinished work is closed first.
        return how
          ? withCommandModel(
            session,
            slash?.kind === "prompt" ? slash.model : undefined,
            () =>
              session.resume(how, text, {
                ...run,
                settings: runtime.settings,
                files: runtime.files,
              }),
          )
          : withCommandModel(
            session,
            slash?.kind === "prompt" ? slash.model : undefined,
            () => session.prompt(text, run),
          );
      });
      interrupted = false;
      const result = await active.done;
      const finished = output.finish(result);
      // A turn the program interrupted ended as it asked: the run did not fail (Claude Code
      // exits 0 then, and the Agent SDK fails a query whose CLI exits otherwise).
      code = interrupted && result?.reason === "cancelled" ? 0 : finished;
    }
    await reading;
    await session.end("other", new AbortController().signal);
  } finally {
    output.close();
  }
  return code;
}

/** The options of one run from the headless options. */
function runOptions(signal: AbortSignal, options: HeadlessOptions) {
  const budget = options.maxBudgetUsd;
  return {
    signal,
    maxTurns: options.maxTurns,
    ...(budget === undefined ? {} : { maxBudgetUsd: budget }),
  };
}

/** A line of `--input-format stream-json`, read. */
type InputLine =
  | { kind: "user"; text: string }
  | { kind: "control"; requestId: string; subtype: string; request: Record<string, unknown> }
  | ({ kind: "reply" } & ControlReply)
  | { kind: "invalid"; error: string };

/** Read one input line: a user message or a control request. Pure. */
export function parseInputLine(line: string): InputLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return {
      kind: "invalid",
      error: `Ignored an input line that is not JSON: ${(error as Error).message}`,
    };
  }
  const object = value as Record<string, unknown>;
  if (object?.type === "user") {
    const message = object.message as { content?: unknown } | undefined;
    const content = message?.content;
    const text = typeof content === "string"
      ? content
      : Array.isArray(content)
      ? content.flatMap((b) => b?.type === "text" && typeof b.text === "string" ? [b.text] : [])
        .join("\n")
      : "";
    if (text.trim()) return { kind: "user", text };
    return { kind: "invalid", error: "Ignored a user message without text" };
  }
  if (object?.type === "control_request") {
    const request = (object.request ?? {}) as Record<string, unknown>;
    return {
      kind: "control",
      requestId: String(object.request_id ?? ""),
      subtype: String(request.subtype ?? ""),
      request,
    };
  }
  if (object?.type === "control_response") {
    const response = (object.response ?? {}) as Record<string, unknown>;
    const body = response.response;
    return {
      kind: "reply",
      requestId: String(response.request_id ?? ""),
      response: response.subtype === "success"
        ? (typeof body === "object" && body !== null ? body as Record<string, unknown> : {})
        : undefined,
      ...(typeof response.error === "string" ? { error: response.error } : {}),
    };
  }
  // The program gave up a request of its own; rein answers each at once, so none is left.
  if (object?.type === "control_cancel_request") return { kind: "invalid", error: "" };
  return {
    kind: "invalid",
    error: `Ignored an input line of type ${JSON.stringify(object?.type)}`,
  };
}

type ControlRequest = Extract<InputLine, { kind: "control" }>;

/** The answer to a control request answered at once. Pure but for the interrupt it makes. */
function controlResponse(
  message: ControlRequest,
  runner: Runner,
  commands: readonly SlashCommandInfo[] = [],
) {
  switch (message.subtype) {
    case "initialize":
      return controlSuccess(message, {
        commands,
        agents: [],
        models: MODELS.map((m) => ({ value: m.id, displayName: m.id, description: m.family })),
      });
    case "interrupt":
      runner.cancelAll();
      return controlSuccess(message);
    default:
      return controlError(message, `Unsupported control request: ${message.subtype || "(none)"}`);
  }
}

/** Control requests that wait for the running turn to end, as prompts do. */
const BETWEEN_TURNS: ReadonlySet<string> = new Set(["set_model", "set_permission_mode"]);

/**
 * `set_permission_mode`, between turns: recorded as the REPL's `/permissions MODE` is (from
 * outside the loop, fed again in replay), or the error says why it was not.
 */
async function switchMode(message: ControlRequest, runtime: Runtime, session: AgentLoop) {
  const mode = message.request.mode;
  if (typeof mode !== "string" || !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    return controlError(
      message,
      `Unknown permission mode ${JSON.stringify(mode)}: rein has ${PERMISSION_MODES.join(", ")}`,
    );
  }
  await runtime.harness.store.append([{
    type: "permission.mode_changed",
    data: { mode },
    session: session.id,
    agent: session.agent,
  }]);
  return controlSuccess(message, { mode });
}

/** `set_model`, between turns: the switch is recorded, or the error says why it was not. */
async function switchModel(message: ControlRequest, session: AgentLoop) {
  const name = message.request.model;
  if (typeof name !== "string") return controlError(message, 'set_model needs a "model" string');
  try {
    const choice = modelChoice(name);
    await session.switchModel(choice.model, choice.maxTokens);
    return controlSuccess(message);
  } catch (error) {
    return controlError(message, (error as Error).message);
  }
}

function controlSuccess(message: ControlRequest, response: Record<string, unknown> = {}) {
  return {
    type: "control_response",
    response: { subtype: "success", request_id: message.requestId, response },
  };
}

function controlError(message: ControlRequest, error: string) {
  return {
    type: "control_response",
    response: { subtype: "error", request_id: message.requestId, error },
  };
}

/**
 * What a headless run prints while it works and when a turn ends: rein's events or Claude Code's
 * messages on stdout, retries and how it ended on stderr, and the result object, with the turn's
 * usage, cost, stop reason and time at the model.
 */
class HeadlessOutput {
  readonly progress: Renderer;
  readonly #io: CommandIo;
  readonly #session: AgentLoop;
  readonly #format: OutputFormat;
  readonly #unsubscribe: () => void;
  #started = 0;
  #usageByModel: Record<string, UsageTotals> = {};
  #held: ReturnType<typeof assistantLine> | undefined;
  /** Teammates' answers held as the lead's is, by teammate (stream-json only). */
  #teammateHeld = new Map<string, Omit<ReturnType<typeof assistantLine>, "parent_tool_use_id">>();
  #spentUsd = 0;
  #stopReason: string | null = null;
  #apiMs = 0;
  #asked = 0;
  /** Inputs of the calls the model made, by id, to list denied ones as Claude Code does. */
  #inputs = new Map<string, { name: string; input: unknown }>();
  #denials: PermissionDenial[] = [];

  constructor(runtime: Runtime, session: AgentLoop, options: HeadlessOptions, io: CommandIo) {
    const { harness } = runtime;
    this.#io = io;
    this.#session = session;
    this.#format = options.format;
    this.progress = new Renderer(
      io.stderr,
      createStyles(useColor(io.stderrIsTerminal)),
      (name) => harness.findTool(name),
      { maxAttempts: runtime.maxAttempts },
    );
    if (this.#format === "events") { for (const event of options.opening ?? []) this.print(event); }
    if (this.#format === "stream-json") {
      const scope = { state: harness.state, session: session.id, agent: session.agent };
      this.print(initLine({
        cwd: session.view.workspace,
        sessionId: session.id,
        tools: harness.deps.pool(scope).tools.map((tool) => tool.name),
        model: session.conversation.model,
        apiKeySource: options.apiKeySource,
        permissionMode: permissionsOf(harness.state, session.id)?.policy.mode ?? "default",
        slashCommands: slashNames(harness, session.id),
        plugins: pluginsOf(harness.state, session.id).map(({ name, root }) => ({
          name,
          path: root,
        })),
        // As Claude Code's: a server still starting is `pending`.
        mcpServers: (runtime.mcp?.statuses() ?? []).map(({ name, status }) => ({
          name,
          status: status === "starting" ? "pending" : status,
        })),
      }));
    }
    this.#unsubscribe = harness.store.subscribe((event) => this.#event(event));
  }

  /** A JSON line on stdout. */
  print(line: unknown): void {
    this.#io.stdout.write(`${JSON.stringify(line)}\n`);
  }

  /** A turn starts: its usage, stop reason and time are counted from here. */
  begin(): void {
    this.#started = performance.now();
    this.#usageByModel = {};
    this.#stopReason = null;
    this.#apiMs = 0;
    this.#denials = [];
  }

  /** The turn ended: print its result in the chosen format; returns the exit code. */
  finish(result: TurnResult | null): number {
    if (this.#held) this.print(this.#held);
    this.#held = undefined;
    const session = this.#session;
    const reason = result?.reason ?? "completed";
    const summary = headlessResult({
      reason,
      rounds: result?.rounds ?? 0,
      ...(result?.message === undefined ? {} : { message: result.message }),
      lastText: session.lastText,
      stopReason: this.#stopReason,
      sessionId: session.id,
      usageByModel: this.#usageByModel,
      durationMs: Math.round(performance.now() - this.#started),
      durationApiMs: Math.round(this.#apiMs),
      permissionDenials: this.#denials,
    });
    this.#spentUsd += summary.total_cost_usd;
    const text = summary.result;
    if (this.#format === "text") {
      if (reason === "completed") {
        this.#io.stdout.write(text.endsWith("\n") || !text ? text : `${text}\n`);
      }
    } else {
      this.print({ ...summary, uuid: crypto.randomUUID() });
    }
    if (reason !== "completed") {
      this.progress.line(
        `Session ${session.id} is saved; continue it with: rein agent --resume ${session.id}`,
      );
    }
    return exitCode(reason);
  }

  close(): void {
    if (this.#held) this.print(this.#held);
    this.#held = undefined;
    for (const line of this.#teammateHeld.values()) this.print(line);
    this.#teammateHeld.clear();
    this.#unsubscribe();
  }

  /** Dollars spent by this process's turns so far (for a budget over all of them). */
  get spentUsd(): number {
    return this.#spentUsd;
  }

  #denied(data: PermissionDecided): void {
    const call = this.#inputs.get(data.callId);
    const input = call && typeof call.input === "object" && call.input !== null
      ? call.input as Record<string, unknown>
      : {};
    const claude = toClaudeCall(data.tool, input, this.#session.view.workspace);
    this.#denials.push({
      tool_name: claude.tool_name,
      tool_use_id: data.callId,
      tool_input: claude.tool_input,
    });
    this.progress.line(describeDenial(data));
  }

  #event(event: Envelope): void {
    if (event.session !== this.#session.id) return;
    if (this.#format === "events") this.print(event);
    // A subagent's or teammate's events count toward the run's usage and denials; their
    // messages are not the lead's answer, so they stay out of the transcript; stream-json shows
    // a teammate's, with its name.
    if (event.agent !== this.#session.agent) {
      this.#count(event);
      if (this.#format === "stream-json") this.#teammateEvent(event);
      return;
    }
    // An answer is printed once the next event shows it was kept: one set aside to be asked
    // again with a larger limit never reaches a stream-json reader.
    if (this.#held && event.type !== "model.discarded") this.print(this.#held);
    this.#held = undefined;
    const refused = event.type === "user.prompted" && event.data.refused !== undefined;
    // A hook's CLAUDE_ENV_FILE lines rein left out are named once, in one line.
    const envIgnored = event.type === "hook.ran" && event.data.envIgnored !== undefined;
    if (PROGRESS.has(event.type) || refused || envIgnored) this.progress.event(event);
    if (event.type === "model.requested") this.#asked = performance.now();
    if (event.type === "model.failed" || event.type === "model.cancelled") {
      this.#apiMs += performance.now() - this.#asked;
    }
    if (event.type === "model.responded") {
      this.#apiMs += performance.now() - this.#asked;
      this.#stopReason = event.data.stopReason;
      if (this.#format === "stream-json") this.#held = assistantLine(event);
    }
    this.#count(event);
    if (event.type === "tool.completed" && this.#format === "stream-json") {
      this.print(toolResultLine(event));
    }
  }

  /**
   * A teammate's answer and tool results as stream-json lines carrying its `agent` name, and as
   * the `parent_tool_use_id` the lead's call that spawned it (as Claude Code marks a subagent's
   * messages, so a reader that knows no `agent` keeps them out of the lead's conversation). An
   * answer is printed once the teammate's next event shows it was kept, as the lead's.
   */
  #teammateEvent(event: Envelope): void {
    const { agent } = event;
    const spawn = agentOf(this.#session.view, agent).spawn;
    if (spawn?.teammate === undefined) return;
    const marks = { parent_tool_use_id: spawn.callId, agent };
    const held = this.#teammateHeld.get(agent);
    if (held && event.type !== "model.discarded") this.print(held);
    this.#teammateHeld.delete(agent);
    if (event.type === "model.responded") {
      this.#teammateHeld.set(agent, { ...assistantLine(event), ...marks });
    }
    if (event.type === "tool.completed") this.print({ ...toolResultLine(event), ...marks });
  }

  /** What any agent's event adds to the run: usage, call inputs, denials. */
  #count(event: Envelope): void {
    if (event.type === "model.responded") {
      const model = agentOf(this.#session.view, event.agent).model;
      addUsage(this.#usageByModel[model] ??= emptyUsage(), event.data.usage);
      for (const block of event.data.content) {
        if (block.type === "tool_use") {
          this.#inputs.set(block.id, { name: block.name, input: block.input });
        }
      }
    }
    if (event.type === "permission.decided" && event.data.decision === "deny") {
      this.#denied(event.data);
    }
  }
}

/** A denied call: listed in the result, and on stderr with what would allow it. */
function describeDenial(data: PermissionDecided): string {
  const { source } = data;
  if (source.kind === "headless" && source.suggestion !== undefined) {
    const edits = data.tool === "write_file" || data.tool === "edit_file"
      ? "--permission-mode acceptEdits, "
      : "";
    return `Denied ${data.tool} (${data.asked ?? "it needs permission"}): a headless run cannot ` +
      `ask. Allow it with ${edits}--allowedTools "${source.suggestion}", or add ` +
      `"${source.suggestion}" to permissions.allow in .claude/settings.json`;
  }
  return `Denied ${data.tool}: ${data.reason}`;
}

/**
 * Events shown on stderr while a headless run works: a custom command run (or refused), retries,
 * model switches, background jobs ending or found lost, how it ended, the lead's requests to its
 * teammates (a shutdown asked at the end) and those that went unanswered.
 */
const PROGRESS: ReadonlySet<string> = new Set([
  "command.invoked",
  "model.failed",
  "model.switched",
  "turn.ended",
  "job.finished",
  "job.lost",
  "protocol.requested",
  "protocol.expired",
]);
