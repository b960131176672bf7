import { resolve } from "../../events/posix_path.ts";
import type { TodoItem, ToolCompleted } from "../../events/event_types.ts";

/** What the log knows about a call beyond its input and result, for its `tool_response`. */
export interface ToolResponseFacts {
  /** The agent's todo list before this call (todo_write). */
  oldTodos?: readonly TodoItem[];
  /** The subagent's usage and tool calls, its id and type (task). */
  subagent?: {
    totalTokens: number;
    totalToolUseCount: number;
    usage: Record<string, number>;
    agentId?: string;
    agentType?: string;
  };
}

/**
 * A successful call's result as Claude Code gives it to PostToolUse hooks (`tool_response`):
 * Claude Code's object for each tool with a Claude Code twin, derived from the call's input
 * (rein's names), its recorded result and `facts` from the log, never from the world, so replay
 * gives the same. Other tools (MCP, an embedder's) give the text the model saw, as before, or
 * the content blocks it saw when the result has them (an MCP tool's image). Paths
 * are made absolute against `cwd`. Pure.
 *
 * What the log does not hold is given as Claude Code gives it when it has nothing: bash's output
 * is all `stdout` (rein keeps stdout and stderr together, as the model sees them), and a write's
 * or edit's `originalFile` is null (the file before the call is not recorded).
 */
export function claudeToolResponse(
  tool: string,
  input: Record<string, unknown>,
  completed: Pick<ToolCompleted, "content" | "durationMs" | "blocks">,
  cwd: string,
  facts: ToolResponseFacts = {},
): unknown {
  const text = completed.content;
  const filePath = typeof input.path === "string" ? resolve(cwd, input.path) : "";
  switch (tool) {
    case "bash":
      return {
        stdout: bashStdout(text),
        stderr: "",
        interrupted: false,
        isImage: false,
        noOutputExpected: false,
      };
    case "read_file":
      return { type: "text", file: readFile(text, filePath, input) };
    case "write_file": {
      const content = typeof input.content === "string" ? input.content : "";
      return {
        type: text.includes("to new file") ? "create" : "update",
        filePath,
        content,
        structuredPatch: [],
        originalFile: null,
      };
    }
    case "edit_file": {
      const oldString = typeof input.old_string === "string" ? input.old_string : "";
      const newString = typeof input.new_string === "string" ? input.new_string : "";
      const line = Number(/at line (\d+)/.exec(text)?.[1] ?? "1");
      return {
        filePath,
        oldString,
        newString,
        originalFile: null,
        structuredPatch: [patchHunk(line, oldString, newString)],
        userModified: false,
        replaceAll: input.replace_all === true,
      };
    }
    case "glob": {
      const { lines, truncated } = listing(text, /^No files match /);
      const filenames = lines.map((line) => resolve(cwd, line));
      return {
        filenames,
        durationMs: completed.durationMs,
        numFiles: filenames.length,
        truncated,
      };
    }
    case "grep":
      return grep(text, input, cwd);
    case "todo_write":
      return {
        oldTodos: facts.oldTodos ?? [],
        newTodos: Array.isArray(input.todos) ? input.todos : [],
      };
    case "task":
      return {
        status: "completed",
        ...(typeof input.prompt === "string" ? { prompt: input.prompt } : {}),
        content: [{ type: "text", text }],
        totalDurationMs: completed.durationMs,
        ...(facts.subagent ?? {}),
      };
    default:
      // A result of content blocks (an MCP tool's image) is given as the blocks, as Claude
      // Code gives an MCP tool's content.
      return completed.blocks ?? text;
  }
}

/** bash's output without the notes rein adds after it ("(No output)", background kills). */
function bashStdout(text: string): string {
  let output = text.replace(
    /\n\nBackground processes still running when the command ended were killed$/,
    "",
  );
  if (output === "(No output)") output = "";
  return output;
}

const NUMBERED = /^ *(\d+)\t(.*)$/;

function readFile(text: string, filePath: string, input: Record<string, unknown>) {
  const startLine = typeof input.offset === "number" ? input.offset : 1;
  if (/^File ".*" is empty$/.test(text)) {
    return { filePath, content: "", numLines: 0, startLine, totalLines: 0 };
  }
  const lines: string[] = [];
  let remaining = 0;
  for (const line of text.split("\n")) {
    const numbered = NUMBERED.exec(line);
    if (numbered) {
      lines.push(numbered[2] ?? "");
      continue;
    }
    // "…" written as \u2026: the bundler keeps a regex's characters as they are, and one past
    // Latin-1 makes V8 hold its whole chunk's source two bytes a character (tests/bundle_test.ts).
    const more = /^\[\u2026 ([\d,]+) more lines?; use offset/.exec(line);
    if (more) remaining = Number((more[1] ?? "0").replaceAll(",", ""));
    else lines.push(line);
  }
  return {
    filePath,
    content: lines.join("\n"),
    numLines: lines.length,
    startLine,
    totalLines: startLine - 1 + lines.length + remaining,
  };
}

/** A unified-diff hunk (jsdiff's `structuredPatch` shape) replacing `oldString` at `line`. */
function patchHunk(line: number, oldString: string, newString: string) {
  const removed = oldString.split("\n");
  const added = newString.split("\n");
  return {
    oldStart: line,
    oldLines: removed.length,
    newStart: line,
    newLines: added.length,
    lines: [...removed.map((l) => `-${l}`), ...added.map((l) => `+${l}`)],
  };
}

/** The lines of a listing, without its notes (`[…]`) or its empty-result line. */
function listing(text: string, empty: RegExp): { lines: string[]; truncated: boolean } {
  const all = text.split("\n").filter((line) => line !== "");
  if (all.length > 0 && empty.test(all[0] ?? "")) return { lines: [], truncated: false };
  const lines = all.filter((line) => !line.startsWith("["));
  return { lines, truncated: lines.length !== all.length };
}

function grep(text: string, input: Record<string, unknown>, cwd: string) {
  const mode = typeof input.output_mode === "string" ? input.output_mode : "files_with_matches";
  const { lines } = listing(text, /^No matches for /);
  if (mode === "content") {
    const filenames = [
      ...new Set(lines.flatMap((line) => /^(.+?):\d+:/.exec(line)?.[1] ?? [])),
    ].map((name) => resolve(cwd, name));
    return {
      mode,
      filenames,
      numFiles: filenames.length,
      content: lines.join("\n"),
      numLines: lines.length,
    };
  }
  if (mode === "count") {
    const counts = lines.map((line) => /^(.*):(\d+)$/.exec(line));
    const filenames = counts.flatMap((match) => match?.[1] ? [resolve(cwd, match[1])] : []);
    const numMatches = counts.reduce((sum, match) => sum + Number(match?.[2] ?? 0), 0);
    return {
      mode,
      filenames,
      numFiles: filenames.length,
      content: lines.join("\n"),
      numLines: lines.length,
      numMatches,
    };
  }
  const filenames = lines.map((line) => resolve(cwd, line));
  return { mode, filenames, numFiles: filenames.length };
}
