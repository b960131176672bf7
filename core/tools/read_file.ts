import type { FileHandle } from "node:fs/promises";
import type { z } from "zod";
import { baseInputSchema } from "./_base_input_schema.ts";
import { errorMessage, formatNumber, plural } from "./_format.ts";
import { ReadCancelled, readChunks } from "./_handle_io.ts";
import { openVerified } from "./_safe_open.ts";
import { fileNotFoundMessage } from "./_suggest.ts";
import { looksBinary, notTextMessage } from "./_text_file.ts";
import { lazySchema } from "./schema.ts";
import { ContentHash } from "./_content_hash.ts";
import { fileSeen, readBeforeEditOn } from "./file_reads.ts";
import type { Tool, ToolCallContext, ToolResult, Zod } from "./tool.ts";
import { protectedPathMessage, resolveInWorkspace } from "./workspace_path.ts";

const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;
const MAX_OUTPUT_CHARS = 100_000;

/** The input's zod schema, built on the tool's first call: zod is not loaded at start-up. */
function inputSchema(z: Zod) {
  return z.strictObject({
    path: z.string().min(1).describe(
      "Path of the file to read, relative to the workspace root (absolute paths must lie inside the workspace)",
    ),
    offset: z.number().int().min(1).optional().describe(
      "1-based line number to start reading from (default 1); use it with limit for large files",
    ),
    limit: z.number().int().min(1).optional().describe(
      `Maximum number of lines to read (default ${DEFAULT_LIMIT})`,
    ),
  });
}

/** Input of the read_file tool. */
export type ReadFileInput = z.infer<ReturnType<typeof inputSchema>>;

/** What the read_file tool needs from its surroundings. */
export interface ReadFileToolDeps {
  /** Directory that relative paths resolve against and that every path must stay inside. */
  workspace: string;
  /** rein's own paths (its event log, `.rein/`): never read. */
  protectedPaths?: readonly string[];
  /** Folders inside `protectedPaths` the tool may still read (the agent's memory). */
  openPaths?: readonly string[];
}

const description =
  `Reads a text file from the workspace and returns its lines numbered like \`cat -n\`: the line number, a tab, then the line's text.

- Paths are relative to the workspace root; absolute paths are accepted only inside the workspace.
- Reads up to ${DEFAULT_LIMIT} lines from the start by default. For larger files a note says how many lines remain and which offset continues; pass offset (1-based) and limit to read a particular part.
- Lines longer than ${MAX_LINE_CHARS} characters are cut, with a marker.
- Binary files and text that is not UTF-8 are refused. A directory is refused too: use glob to list files.
- Read a file before editing it with edit_file, and copy text for old_string from what this shows without the line-number prefix (everything after the tab).
- You can read several files at once by calling this tool several times in one response.`;

/** Creates the tool that reads numbered lines of a text file. Read-only. */
export function createReadFileTool(deps: ReadFileToolDeps): Tool<ReadFileInput> {
  return {
    name: "read_file",
    description,
    schema: lazySchema(inputSchema),
    inputSchema: baseInputSchema("read_file"),
    kind: "effect",
    readOnly: true,
    claudeNames: ["Read"],
    claudeFields: { path: "file_path" },
    pathFields: ["path"],
    permission: "read-only",
    summarize: (input) => input.path,
    run: (input, context) => readFile(deps, input, context),
  };
}

async function readFile(
  deps: ReadFileToolDeps,
  input: ReadFileInput,
  context: ToolCallContext,
): Promise<ToolResult> {
  const { workspace, protectedPaths = [], openPaths = [] } = deps;
  const { signal } = context;
  const resolved = await resolveInWorkspace(workspace, input.path);
  if (!resolved.ok) return { content: resolved.message, isError: true };
  const refusal = await protectedPathMessage(
    workspace,
    resolved.path,
    protectedPaths,
    "read",
    openPaths,
  );
  if (refusal !== undefined) return { content: refusal, isError: true };
  const display = resolved.relative;
  const opened = await openVerified({
    workspace,
    root: resolved.root,
    path: resolved.path,
    display,
    purpose: "read",
    protectedPaths,
    openPaths,
    checkedPath: resolved.path,
  });
  if (!opened.ok) {
    switch (opened.problem) {
      case "not-found":
      case "exists":
        return { content: await fileNotFoundMessage(resolved.path, display), isError: true };
      case "directory":
        return {
          content: `"${display}" is a directory, not a file; use glob to list the files in it`,
          isError: true,
        };
      case "special":
        return {
          content:
            `"${display}" is not a regular file (${opened.kind}); read_file reads files only`,
          isError: true,
        };
      default:
        return { content: opened.message, isError: true };
    }
  }
  await using file = opened;

  const offset = input.offset ?? 1;
  const limit = input.limit ?? DEFAULT_LIMIT;
  let scan: LineScan;
  // A full read (no offset, no limit) records a hash of the bytes for read before edit, which
  // lets an edit through when only the modification time changed since, as Claude Code does.
  const hash = readBeforeEditOn(context) && input.offset === undefined &&
      input.limit === undefined
    ? new ContentHash()
    : undefined;
  try {
    scan = await scanLines(file.handle, offset, limit, signal, hash);
  } catch (error) {
    if (error instanceof ReadCancelled) {
      return { content: `Reading "${display}" was cancelled`, isError: true, cancelled: true };
    }
    return { content: `Cannot read "${display}": ${errorMessage(error)}`, isError: true };
  }
  if (scan.kind !== "text") return { content: notTextMessage(display, scan.kind), isError: true };
  // What the agent saw, for a later edit of the file (read before edit).
  const seen = readBeforeEditOn(context)
    ? { file: fileSeen(resolved.path, file.stats, hash?.digest()) }
    : {};
  if (scan.totalLines === 0) {
    return { content: `File "${display}" is empty`, isError: false, ...seen };
  }
  if (offset > scan.totalLines) {
    return {
      content: `Offset ${offset} is past the end of "${display}", which has ${
        plural(scan.totalLines, "line")
      }`,
      isError: true,
    };
  }
  return { content: render(scan, offset), isError: false, ...seen };
}

interface NumberedLine {
  text: string;
  /** Full length of the line before truncation. */
  length: number;
}

type LineScan =
  | { kind: "binary" | "not-utf8" }
  | { kind: "text"; lines: NumberedLine[]; totalLines: number };

/**
 * Streams the file once: checks it is text, counts its lines and keeps the window
 * [offset, offset + limit) with each line cut to MAX_LINE_CHARS, so memory stays bounded.
 */
async function scanLines(
  handle: FileHandle,
  offset: number,
  limit: number,
  signal: AbortSignal,
  hash?: ContentHash,
): Promise<LineScan> {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const lines: NumberedLine[] = [];
  let lineNumber = 1;
  let partial = "";
  let partialLength = 0;
  let sniffed = 0;
  let outputChars = 0;
  const keep = (text: string, length: number) => {
    const inWindow = lineNumber >= offset && lineNumber < offset + limit;
    if (inWindow && outputChars < MAX_OUTPUT_CHARS) {
      lines.push({ text: text.replace(/\r$/, ""), length });
      outputChars += Math.min(length, MAX_LINE_CHARS) + 8;
    }
    lineNumber++;
  };
  const take = (text: string) => {
    const segments = text.split("\n");
    for (let i = 0; i < segments.length - 1; i++) {
      const segment = segments[i] ?? "";
      const text = (partial + segment.slice(0, MAX_LINE_CHARS + 1)).slice(0, MAX_LINE_CHARS + 1);
      keep(text, partialLength + segment.length);
      partial = "";
      partialLength = 0;
    }
    const last = segments.at(-1) ?? "";
    partial = (partial + last.slice(0, MAX_LINE_CHARS + 1)).slice(0, MAX_LINE_CHARS + 1);
    partialLength += last.length;
  };

  for await (const chunk of readChunks(handle, signal)) {
    hash?.update(chunk);
    if (sniffed < 8192 && looksBinary(chunk.subarray(0, 8192 - sniffed))) return { kind: "binary" };
    sniffed += chunk.length;
    try {
      take(decoder.decode(chunk, { stream: true }));
    } catch {
      return { kind: "not-utf8" };
    }
  }
  try {
    take(decoder.decode());
  } catch {
    return { kind: "not-utf8" };
  }
  if (partialLength > 0) keep(partial, partialLength);
  return { kind: "text", lines, totalLines: lineNumber - 1 };
}

function render(scan: { lines: NumberedLine[]; totalLines: number }, offset: number): string {
  const out = scan.lines.map((line, i) => {
    const text = line.length > MAX_LINE_CHARS
      ? `${line.text.slice(0, MAX_LINE_CHARS)}… [line cut: ${formatNumber(line.length)} characters]`
      : line.text;
    return `${String(offset + i).padStart(6)}\t${text}`;
  });
  const next = offset + scan.lines.length;
  const remaining = scan.totalLines - next + 1;
  if (remaining > 0) {
    out.push(`[… ${plural(remaining, "more line")}; use offset ${next} to continue]`);
  }
  return out.join("\n");
}
