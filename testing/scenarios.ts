/**
 * Named, stateless scripts for the fake Anthropic server: each reply is a function of the
 * conversation in the request, so a client killed and restarted against the same server picks
 * up where the conversation left off.
 *
 * @module
 */

import {
  cut,
  type FakeReply,
  type FakeScriptFn,
  maxTokens,
  message,
  overloaded,
  promptTooLong,
  rateLimited,
  serverError,
  text,
  toolUse,
} from "./fake_replies.ts";
import type { FakeMessageParam, FakeRequestBody, RecordedRequest } from "./fake_request.ts";

/** Number of `tool_result` blocks in all messages of the request. Pure. */
export function toolResultCount(body: FakeRequestBody | undefined): number {
  let count = 0;
  for (const { content } of body?.messages ?? []) {
    if (typeof content === "string") continue;
    count += content.filter((block) => block.type === "tool_result").length;
  }
  return count;
}

/**
 * Text of a conversation's first message (string content, or its text blocks joined): the task an
 * agent was given, which tells a parent's requests from its children's. `""` when there is none.
 * Pure.
 */
export function firstUserText(messages: readonly FakeMessageParam[]): string {
  const first = messages[0];
  if (!first) return "";
  if (typeof first.content === "string") return first.content;
  return first.content.flatMap((block) => block.type === "text" ? [String(block.text)] : [])
    .join("");
}

/**
 * Text of the last user message that has text (string content, or its text blocks joined by
 * newlines); messages holding only tool results are skipped. `""` when there is none. Pure.
 */
export function lastUserText(body: FakeRequestBody | undefined): string {
  const messages = body?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const entry = messages[i];
    if (entry === undefined || entry.role !== "user") continue;
    if (typeof entry.content === "string") return entry.content;
    const texts = entry.content.flatMap((block) =>
      block.type === "text" && typeof block.text === "string" ? [block.text] : []
    );
    if (texts.length > 0) return texts.join("\n");
  }
  return "";
}

/**
 * The text of a request's last message: its text blocks, and each tool result as `id content`
 * (its call's id, then its content as JSON). Pure.
 */
export function lastMessageText(request: RecordedRequest | undefined): string {
  const content = request?.body?.messages.at(-1)?.content;
  if (typeof content === "string") return content;
  return (content ?? []).map((block) =>
    block.type === "text"
      ? String(block.text)
      : block.type === "tool_result"
      ? `${String(block.tool_use_id)} ${JSON.stringify(block.content)}`
      : ""
  ).join("\n");
}

/**
 * A teammate that works on what it claims by itself: on the task it auto-claimed, it writes
 * `<subject>.txt`, then completes the task; it approves a shutdown request. Pure.
 */
export function claimingTeammate(request: RecordedRequest): FakeReply {
  const last = lastMessageText(request);
  if (last.includes("shutdown_request")) {
    return message([
      toolUse(`toolu_bye_${crypto.randomUUID().slice(0, 8)}`, "respond_shutdown", {
        approve: true,
      }),
    ]);
  }
  const claimed = /claimed task #(\d+) of the task graph by yourself: (\w+)/.exec(last);
  if (claimed) {
    const [, id, subject] = claimed;
    return message([toolUse(`toolu_write_${id}`, "write_file", {
      path: `${subject!.toLowerCase()}.txt`,
      content: `${subject} done\n`,
    })]);
  }
  const wrote = /^toolu_write_(\d+) /.exec(last);
  if (wrote) {
    return message([
      toolUse(`toolu_done_${wrote[1]}`, "complete_task", { task_id: Number(wrote[1]) }),
    ]);
  }
  if (last.startsWith("toolu_done_")) return message("Completed.");
  return message("Waiting for work.");
}

/** Always answers `answer` with `end_turn`. */
export function plainAnswer(answer: string): FakeScriptFn {
  return () => message(answer);
}

/** Answers "You said: <last user text>". */
export function echo(): FakeScriptFn {
  return (request) => message(`You said: ${lastUserText(request.body)}`);
}

/**
 * While the conversation holds fewer than `n` tool results, asks for command `i` (count + 1)
 * with one `bash` tool_use `toolu_bash_<i>` and `{command: commandFor(i)}`; then answers
 * "Done: ran <n> commands".
 */
export function sequentialBash(n: number, commandFor: (i: number) => string): FakeScriptFn {
  return (request) => {
    const done = toolResultCount(request.body);
    if (done >= n) return message(`Done: ran ${n} commands`);
    const i = done + 1;
    return message([
      text(`Step ${i} of ${n}: running a command.`),
      toolUse(`toolu_bash_${i}`, "bash", { command: commandFor(i) }),
    ]);
  };
}

/** One scripted tool call. */
export interface ScriptedToolCall {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** Content `allSixTools` writes before its edit. */
export const SIX_TOOLS_CONTENT = "alpha\nbeta\ngamma\n";

/** Content of the file once `allSixTools` has edited it. */
export const SIX_TOOLS_EDITED = "alpha\nbeta edited by rein\ngamma\n";

/**
 * The calls `allSixTools(file)` makes, in order: write_file, read_file, edit_file, glob, grep,
 * bash `cat`. Pure.
 */
export function sixToolCalls(file: string): readonly ScriptedToolCall[] {
  const base = file.split("/").at(-1) ?? file;
  return [
    { name: "write_file", input: { path: file, content: SIX_TOOLS_CONTENT } },
    { name: "read_file", input: { path: file } },
    {
      name: "edit_file",
      input: { path: file, old_string: "beta", new_string: "beta edited by rein" },
    },
    { name: "glob", input: { pattern: `**/${base}` } },
    { name: "grep", input: { pattern: "edited by rein" } },
    { name: "bash", input: { command: `cat ${shellQuote(file)}` } },
  ];
}

/**
 * Uses each of the six tools once on `file` (relative to the working directory), one call per
 * turn, the stage being the number of tool results so far; then answers
 * "Done: used all six tools". Tool ids are `toolu_six_<stage>_<name>`, stage from 1.
 */
export function allSixTools(file = "notes/fake.txt"): FakeScriptFn {
  const calls = sixToolCalls(file);
  return (request) => {
    const stage = toolResultCount(request.body);
    const call = calls[stage];
    if (call === undefined) return message("Done: used all six tools");
    return message([
      text(`Using ${call.name}.`),
      toolUse(`toolu_six_${stage + 1}_${call.name}`, call.name, call.input),
    ]);
  };
}

/** Which requests `faultThen` may answer with a fault. */
export interface FaultOptions {
  /** Only matching requests get a fault; default: every request. */
  readonly when?: (request: RecordedRequest) => boolean;
}

/**
 * Answers the first matching request(s) with the faults in order (one fault each), then
 * delegates to `next` with `index` counting only delegated requests. Keeps a count of faults
 * served, so make one per server.
 */
export function faultThen(
  faults: FakeReply | readonly FakeReply[],
  next: FakeScriptFn,
  options: FaultOptions = {},
): FakeScriptFn {
  const list: readonly FakeReply[] = Array.isArray(faults) ? faults : [faults as FakeReply];
  let served = 0;
  return (request, index) => {
    const fault = list[served];
    if (fault !== undefined && (options.when?.(request) ?? true)) {
      served++;
      return fault;
    }
    return next(request, index - served);
  };
}

const NAMED: Readonly<Record<string, () => FakeScriptFn>> = {
  "plain": () => plainAnswer("Hello from the fake Anthropic API."),
  "echo": echo,
  "bash": () => sequentialBash(3, (i) => `echo step ${i}`),
  "six-tools": () => allSixTools(),
  "rate-limited": () => faultThen(rateLimited(1), echo()),
  "overloaded": () => faultThen(overloaded(), echo()),
  "server-error": () => faultThen(serverError(), echo()),
  "cut": () => faultThen(cut(), echo()),
  "prompt-too-long": () => faultThen(promptTooLong(), echo()),
  "max-tokens": () => faultThen(maxTokens(), echo()),
};

/** Names accepted by {@linkcode namedScenario}. */
export function scenarioNames(): string[] {
  return Object.keys(NAMED);
}

/** A fresh script for a scenario name, or `undefined` if there is no such scenario. */
export function namedScenario(name: string): FakeScriptFn | undefined {
  return Object.hasOwn(NAMED, name) ? NAMED[name]?.() : undefined;
}

function shellQuote(value: string): string {
  return /^[\w./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
