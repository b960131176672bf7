/**
 * Writes a realistic event log of exactly N events, for benches of long logs: sessions of many
 * turns, each turn a prompt and model rounds with tool calls (permission decisions, PreToolUse
 * hooks, intents, results of varied sizes, denials), todo reminders, UserPromptSubmit hooks, and
 * `session.started` with a settings snapshot and recorded files. Lines are encoded by the store's
 * own encoder, so they are byte for byte what rein writes; seq is gapless from 1, every session
 * is complete (it ends with `session.ended`, every call has its result), and the output is a pure
 * function of the options (no clock, no randomness beyond a seeded generator).
 *
 * `deno run -A testing/generate_log.ts --events N --out PATH [--workspace DIR] [--seed S]`
 *
 * @module
 */
import { encodeEvents } from "../events/_encode.ts";
import type { ContentBlock, NewEvent, ReinEvent } from "../events/event_types.ts";

/** Bumped whenever the output for the same options changes, so cached logs are rebuilt. */
export const GENERATOR_VERSION = 1;

/** What to generate. */
export interface GenerateLogOptions {
  /** Number of events, exactly. */
  events: number;
  /** The workspace the sessions say they ran in; default `/home/dev/project`. */
  workspace?: string;
  /** Seed of the generator; default 1. */
  seed?: number;
}

/** A session of a generated log. */
export interface GeneratedSession {
  id: string;
  firstSeq: number;
  lastSeq: number;
}

/** What {@link generateLog} wrote. */
export interface GeneratedLog {
  events: number;
  bytes: number;
  sessions: GeneratedSession[];
}

const MODEL = "claude-sonnet-5";
const HOME = "/home/dev";
const SANDBOX = "Commands run in a sandbox: they can change files only in the workspace (except " +
  "rein's log directory) and in /tmp, which is private to each call and empty at its start, so " +
  "keep files later calls need in the workspace; the rest of the machine is read-only, " +
  "credentials such as ~/.ssh are hidden, secret environment variables are unset.";
const HOOK_COMMAND = 'bash "$CLAUDE_PROJECT_DIR/.claude/hooks/check_command.sh"';
const SETTINGS_TEXT = `${
  JSON.stringify(
    {
      permissions: {
        allow: ["Bash(deno test:*)", "Bash(deno fmt:*)", "Bash(git diff:*)", "Edit(/src/**)"],
        deny: ["Bash(curl:*)", "Read(./.env)"],
      },
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: HOOK_COMMAND }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: "date +%H:%M" }] }],
      },
    },
    null,
    2,
  )
}\n`;

/** xorshift32: a small deterministic generator of numbers in [0, 1). */
function random(seed: number): () => number {
  let state = (seed * 2654435761) >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
}

const WORDS = ("the file function returns const error test passes src/main.ts import await deno " +
  "value string ok line => if else for of let new class interface export type async catch " +
  "throw length map filter reduce path config options result events log seq session agent")
  .split(" ");
const CODE = [
  "export function foldEvents(state: State, event: Envelope): State {",
  '  if (event.type === "tool.completed") return { ...state, done: state.done + 1 };',
  '  const text = `line ${n}: "quoted" and \\backslash\\ and a tab\\there`;',
  "  for (const [key, value] of Object.entries(options)) map.set(key, value);",
  "}",
  "// TODO: handle the torn tail before the lock is released",
  "error: Uncaught (in promise) TypeError: Cannot read properties of undefined",
  "ok | 12 passed | 0 failed (1s)",
  "diff --git a/src/main.ts b/src/main.ts",
  "+  return await store.append(events, { sync: true });",
];

/** A pool of text to slice from: words and code lines, with quotes, backslashes and newlines. */
function corpus(next: () => number): string {
  const parts: string[] = [];
  let size = 0;
  while (size < 1 << 20) {
    const part = next() < 0.3
      ? `${CODE[Math.floor(next() * CODE.length)]}\n`
      : `${WORDS[Math.floor(next() * WORDS.length)]}${next() < 0.08 ? ".\n" : " "}`;
    parts.push(part);
    size += part.length;
  }
  return parts.join("");
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const TOOLS = ["read_file", "bash", "grep", "glob", "edit_file", "write_file"] as const;
type ToolName = typeof TOOLS[number];
const RULES: Readonly<Record<ToolName, string>> = {
  read_file: "Read",
  grep: "Grep",
  glob: "Glob",
  bash: "Bash(deno test:*)",
  edit_file: "Edit(/src/**)",
  write_file: "Edit(/src/**)",
};
/** Sizes (in events) of the kinds of model round with tool calls, see `round`. */
const ROUND_SIZES = [4, 5, 5, 5, 5, 7, 7, 8];

/** The events of a log of `options.events` events, each with its time, in order. Pure. */
export function* generateEvents(
  options: GenerateLogOptions,
): Generator<{ event: NewEvent; ts: string }> {
  const next = random(options.seed ?? 1);
  const text = corpus(next);
  const workspace = options.workspace ?? `${HOME}/project`;
  let clock = Date.UTC(2026, 0, 5, 9, 0, 0) + Math.floor(next() * 1e6);
  let remaining = options.events;
  let session = "";

  const int = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const slice = (size: number) => {
    const from = Math.floor(next() * (text.length - size));
    return text.slice(from, from + size);
  };
  const id = (prefix: string, length: number) => {
    let out = prefix;
    for (let i = 0; i < length; i++) out += BASE62[Math.floor(next() * 62)];
    return out;
  };
  const hex = (length: number) => {
    let out = "";
    for (let i = 0; i < length; i++) out += "0123456789abcdef"[Math.floor(next() * 16)];
    return out;
  };
  const at = (advanceMs: number) => {
    clock += Math.max(1, Math.round(advanceMs));
    return new Date(clock).toISOString();
  };
  const item = (body: ReinEvent, advanceMs: number) => ({
    event: { ...body, session, agent: "lead" } as NewEvent,
    ts: at(advanceMs),
  });
  /** Tool output sizes: mostly short, some pages, a few large files or logs. */
  const outputSize = () => {
    const roll = next();
    return roll < 0.75 ? int(20, 250) : roll < 0.97 ? int(250, 1000) : int(1000, 4000);
  };

  function input(tool: ToolName): Record<string, unknown> {
    const path = `src/${pick(WORDS).replace(/\W/g, "") || "mod"}_${int(1, 60)}.ts`;
    switch (tool) {
      case "read_file":
        return next() < 0.8 ? { path } : { path, offset: int(1, 400), limit: 200 };
      case "bash":
        return { command: pick(["deno test -A ", "git diff ", "deno fmt ", "ls -la "]) + path };
      case "grep":
        return { pattern: pick(WORDS), path: "src" };
      case "glob":
        return { pattern: `src/**/*${pick([".ts", "_test.ts", ".json"])}` };
      case "edit_file":
        return { path, old_string: slice(int(10, 80)), new_string: slice(int(10, 100)) };
      case "write_file":
        return { path, content: slice(int(100, 1200)) };
    }
  }

  function decided(callId: string, tool: ToolName, allow: boolean): ReinEvent {
    if (!allow) {
      const suggestion = tool === "bash" ? "Bash(ls -la:*)" : "Edit(/src/main.ts)";
      return {
        type: "permission.decided",
        data: {
          callId,
          tool,
          asked: "no permission rule allows it",
          decision: "deny",
          source: { kind: "headless", suggestion },
          reason: "This call needs permission (no permission rule allows it) and nobody can be " +
            `asked in a headless run, so it was denied. The user can allow it with --allowedTools "${suggestion}" or a permissions.allow rule in .claude/settings.json`,
        },
      };
    }
    const data = tool === "read_file" || tool === "grep" || tool === "glob"
      ? { source: { kind: "read_only" as const }, reason: "Read-only tool" }
      : {
        source: { kind: "rule" as const, rule: RULES[tool], file: ".claude/settings.json" },
        reason: `The rule "${RULES[tool]}" in .claude/settings.json allows it`,
      };
    return { type: "permission.decided", data: { callId, tool, decision: "allow", ...data } };
  }

  /** The events of running one call: decision, hooks, intent, result (`hooks` adds 2). */
  function* call(callId: string, tool: ToolName, args: unknown, kind: "run" | "deny" | "hook") {
    if (kind === "hook") {
      yield item({
        type: "hook.started",
        data: { hookEvent: "PreToolUse", callId, commands: [HOOK_COMMAND] },
      }, 2);
      yield item({
        type: "hook.ran",
        data: {
          hookEvent: "PreToolUse",
          callId,
          matcher: "Bash",
          command: HOOK_COMMAND,
          exitCode: 0,
          stdout: "",
          stderr: "",
          durationMs: int(4, 40),
          ending: "exited",
          decision: "no decision",
        },
      }, int(5, 40));
    }
    yield item(decided(callId, tool, kind !== "deny"), 1);
    if (kind === "deny") {
      yield item({
        type: "tool.completed",
        data: {
          callId,
          name: tool,
          content: "Permission denied: this call needs permission and nobody can be asked",
          isError: true,
          durationMs: 0,
          outcome: "denied",
        },
      }, 1);
      return;
    }
    yield item({ type: "tool.requested", data: { callId, name: tool, input: args } }, 1);
    const durationMs = tool === "bash" ? int(20, 4000) : int(1, 30);
    yield item({
      type: "tool.completed",
      data: {
        callId,
        name: tool,
        content: slice(outputSize()),
        isError: next() < 0.08,
        durationMs,
      },
    }, durationMs);
  }

  let context = 0;
  function* model(content: ContentBlock[]) {
    yield item({
      type: "model.requested",
      data: { model: MODEL, digest: hex(64), attempt: 1 },
    }, int(1, 8));
    const output = int(20, 400);
    context += output + int(50, 1500);
    yield item({
      type: "model.responded",
      data: {
        messageId: id("msg_01", 22),
        model: MODEL,
        content,
        stopReason: content.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn",
        usage: {
          input_tokens: int(1, 40),
          output_tokens: output,
          cache_creation_input_tokens: int(100, 2000),
          cache_read_input_tokens: context,
        },
        requestId: id("req_01", 22),
      },
    }, int(800, 20000));
  }

  /** One model round with tool calls, of `size` events (one of ROUND_SIZES). */
  function* round(size: number) {
    const tools: ToolName[] = size === 8 ? [pick(TOOLS), pick(TOOLS)] : [
      size === 7 ? "bash" : pick(TOOLS),
    ];
    const calls = tools.map((tool) => ({ id: id("toolu_01", 22), tool, input: input(tool) }));
    const blocks: ContentBlock[] = next() < 0.5
      ? [{ type: "text", text: slice(int(30, 300)) }]
      : [];
    for (const c of calls) {
      blocks.push({ type: "tool_use", id: c.id, name: c.tool, input: c.input });
    }
    yield* model(blocks);
    const kind = size === 4 ? "deny" : size === 7 ? "hook" : "run";
    for (const c of calls) yield* call(c.id, c.tool, c.input, kind);
  }

  /** A turn of exactly `size` ≥ 5 events. */
  function* turn(size: number, roundsBefore: number) {
    let rest = size - 5;
    const kinds: number[] = [];
    while (rest > 3) {
      const fitting = ROUND_SIZES.filter((s) => s <= rest);
      const chosen = pick(fitting);
      kinds.push(chosen);
      rest -= chosen;
    }
    if (rest & 1) {
      yield item({
        type: "reminder.added",
        data: { source: "todos", text: `Your todo list:\n${slice(int(60, 300))}` },
      }, int(1, 5));
    }
    yield item({ type: "user.prompted", data: { text: slice(int(20, 300)) } }, int(5000, 90000));
    if (rest & 2) {
      yield item({
        type: "hook.started",
        data: { hookEvent: "UserPromptSubmit", commands: ["date +%H:%M"] },
      }, 1);
      yield item({
        type: "hook.ran",
        data: {
          hookEvent: "UserPromptSubmit",
          matcher: "",
          command: "date +%H:%M",
          exitCode: 0,
          stdout: "10:42\n",
          stderr: "",
          durationMs: int(2, 9),
          ending: "exited",
          decision: "context added",
        },
      }, int(2, 9));
    }
    yield item({ type: "turn.started", data: { roundsBefore, maxTurns: null } }, 1);
    for (const kind of kinds) yield* round(kind);
    yield* model([{ type: "text", text: slice(int(60, 800)) }]);
    const rounds = roundsBefore + kinds.length + 1;
    yield item({ type: "turn.ended", data: { reason: "completed", rounds } }, 2);
    return rounds;
  }

  function started(): ReinEvent {
    const skill = (name: string) => ({
      source: "skills",
      path: `${HOME}/.claude/skills/${name}/SKILL.md`,
      text: `---\nname: ${name}\ndescription: ${slice(120)}\n---\n\n# ${name}\n\n${slice(4000)}`,
    });
    return {
      type: "session.started",
      data: {
        model: MODEL,
        workspace,
        startedAt: new Date(clock).toISOString(),
        maxTokens: 32000,
        platform: "linux x86_64",
        settings: {
          sources: [{
            scope: "project",
            path: `${workspace}/.claude/settings.json`,
            text: SETTINGS_TEXT,
          }],
          flags: next() < 0.3 ? { permissionMode: "acceptEdits" } : {},
          home: HOME,
          interactive: next() < 0.5,
          sandbox: SANDBOX,
        },
        files: [
          { source: "memory", path: `${workspace}/CLAUDE.md`, text: slice(1500) },
          { source: "memory.index", path: `${workspace}/.rein/memory/MEMORY.md`, text: "" },
          skill("release-notes"),
          skill("review-a-diff"),
        ],
      },
    };
  }

  while (remaining > 0) {
    // A session of 7 events at least (start, one 5-event turn, end); the last takes the rest.
    let size = Math.min(remaining, int(40, 2500));
    if (remaining - size < 7) size = remaining;
    remaining -= size;
    const uuid = hex(32);
    session = `${uuid.slice(0, 8)}-${uuid.slice(8, 12)}-4${uuid.slice(13, 16)}-a${
      uuid.slice(17, 20)
    }-${uuid.slice(20)}`;
    clock += int(60_000, 8 * 3_600_000);
    if (size < 7) {
      // Only for logs of fewer than 7 events: the start of a session.
      for (let i = 0; i < size; i++) {
        yield i === 0
          ? item(started(), 0)
          : item({ type: "user.prompted", data: { text: "hi" } }, 9);
      }
      continue;
    }
    yield item(started(), 0);
    let rest = size - 2;
    let rounds = 0;
    context = int(4000, 9000);
    while (rest > 0) {
      let turnSize = Math.min(rest, int(5, 160));
      if (rest - turnSize < 5) turnSize = rest;
      rest -= turnSize;
      rounds = yield* turn(turnSize, rounds);
    }
    yield item({ type: "session.ended", data: { reason: "other" } }, int(100, 3000));
  }
}

/**
 * Write a log of exactly `options.events` events to `path` (replacing it), streaming: memory stays
 * small whatever the size. Returns its size and sessions.
 */
export async function generateLog(
  path: string,
  options: GenerateLogOptions,
): Promise<GeneratedLog> {
  const identity = (line: string) => line;
  const encoder = new TextEncoder();
  const sessions: GeneratedSession[] = [];
  let seq = 0;
  let bytes = 0;
  let pending: string[] = [];
  let pendingChars = 0;
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  const flush = async () => {
    const data = encoder.encode(pending.join(""));
    for (let written = 0; written < data.length;) {
      written += await file.write(data.subarray(written));
    }
    bytes += data.length;
    pending = [];
    pendingChars = 0;
  };
  for (const { event, ts } of generateEvents(options)) {
    seq++;
    const last = sessions.at(-1);
    if (last?.id === event.session) last.lastSeq = seq;
    else sessions.push({ id: event.session, firstSeq: seq, lastSeq: seq });
    const { text } = encodeEvents([event], seq, ts, identity);
    pending.push(text);
    pendingChars += text.length;
    if (pendingChars >= 1 << 22) await flush();
  }
  await flush();
  return { events: seq, bytes, sessions };
}

function flag(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at === -1 ? undefined : args[at + 1];
}

if (import.meta.main) {
  const events = Number(flag(Deno.args, "--events"));
  const out = flag(Deno.args, "--out");
  if (!Number.isInteger(events) || events < 0 || out === undefined) {
    console.error("Usage: generate_log.ts --events N --out PATH [--workspace DIR] [--seed S]");
    Deno.exit(2);
  }
  const workspace = flag(Deno.args, "--workspace");
  const started = performance.now();
  const log = await generateLog(out, {
    events,
    seed: Number(flag(Deno.args, "--seed") ?? "1"),
    ...(workspace === undefined ? {} : { workspace }),
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${out}: ${log.events} events, ${(log.bytes / 1e6).toFixed(1)} MB, ` +
      `${log.sessions.length} sessions, in ${seconds} s`,
  );
}
