import type { z } from "zod";
import { baseInputSchema } from "./_base_input_schema.ts";
import { errorMessage, plural } from "./_format.ts";
import { readAll, ReadCancelled, replaceContent } from "./_handle_io.ts";
import { openVerified } from "./_safe_open.ts";
import { fileNotFoundMessage } from "./_suggest.ts";
import { decodeText, notTextMessage } from "./_text_file.ts";
import { lazySchema } from "./schema.ts";
import type { Tool, ToolCallContext, ToolResult, Zod } from "./tool.ts";
import { judgedProtectedPath } from "./_judged_path.ts";
import { fileSeen, readBeforeEditRefusal, seenAfterWrite } from "./file_reads.ts";
import {
  guardedFolder,
  guardedReason,
  protectedPathMessage,
  resolveInWorkspace,
} from "./workspace_path.ts";

/** The input's zod schema, built on the tool's first call: zod is not loaded at start-up. */
function inputSchema(z: Zod) {
  return z.strictObject({
    path: z.string().min(1).describe(
      "Path of the file to edit, relative to the workspace root (absolute paths must lie inside the workspace)",
    ),
    old_string: z.string().describe(
      "The exact text to replace, including whitespace and indentation; it must occur exactly once unless replace_all is true",
    ),
    new_string: z.string().describe("The text to put in its place (must differ from old_string)"),
    replace_all: z.boolean().optional().describe(
      "Replace every occurrence of old_string instead of requiring exactly one (default false)",
    ),
  });
}

/** Input of the edit_file tool. */
export type EditFileInput = z.infer<ReturnType<typeof inputSchema>>;

/** What the edit_file tool needs from its surroundings. */
export interface EditFileToolDeps {
  /** Directory that relative paths resolve against and that every path must stay inside. */
  workspace: string;
  /** rein's own paths (its event log and the log's directory): never edited. */
  protectedPaths?: readonly string[];
  /** Folders inside `protectedPaths` the tool may still edit (the agent's memory). */
  openPaths?: readonly string[];
}

const description =
  `Edits an existing file by replacing an exact piece of text: old_string becomes new_string.

- Read the file with read_file first. Copy old_string exactly as the file has it, with the same indentation (tabs or spaces), and without read_file's line-number prefix (the number and the tab before each line).
- old_string must occur exactly once in the file; otherwise the edit fails and nothing changes. Include a few surrounding lines to make it unique, or set replace_all to change every occurrence (handy for renaming a variable).
- Paths are relative to the workspace root; absolute paths are accepted only inside the workspace. The file must exist: use write_file to create files.
- Keep each edit focused; make several calls for changes in different places.`;

/** Creates the tool that replaces exact text in a file. */
export function createEditFileTool(deps: EditFileToolDeps): Tool<EditFileInput> {
  return {
    name: "edit_file",
    description,
    schema: lazySchema(inputSchema),
    inputSchema: baseInputSchema("edit_file"),
    kind: "effect",
    readOnly: false,
    claudeNames: ["Edit", "MultiEdit"],
    claudeFields: { path: "file_path" },
    pathFields: ["path"],
    permission: "edit",
    guidance:
      "Read a file before you edit it. Prefer edit_file for changes to existing files and " +
      "write_file for new files. Keep changes focused on what was asked.",
    summarize: (input) => input.path,
    run: (input, context) => editFile(deps, input, context),
  };
}

async function editFile(
  deps: EditFileToolDeps,
  input: EditFileInput,
  context: ToolCallContext,
): Promise<ToolResult> {
  const { workspace, protectedPaths = [], openPaths = [] } = deps;
  const { signal } = context;
  if (input.old_string === input.new_string) {
    return {
      content: "old_string and new_string are identical; there is nothing to change",
      isError: true,
    };
  }
  if (input.old_string === "") {
    return {
      content:
        "old_string is empty; give the exact text to replace, or use write_file to create a file",
      isError: true,
    };
  }
  const resolved = await resolveInWorkspace(workspace, input.path);
  if (!resolved.ok) return { content: resolved.message, isError: true };
  const refusal = await protectedPathMessage(
    workspace,
    resolved.path,
    protectedPaths,
    "edit",
    openPaths,
  );
  if (refusal !== undefined) return { content: refusal, isError: true };
  const display = resolved.relative;
  // A file in .claude/ or .git/ is edited only where the gate asked a person about this one.
  const allowed = judgedProtectedPath(context, resolved.root);
  const folder = guardedFolder(resolved.root, resolved.path);
  if (folder !== undefined && resolved.path !== allowed) {
    return { content: `Refusing to edit "${display}": ${guardedReason(folder)}`, isError: true };
  }
  const opened = await openVerified({
    workspace,
    root: resolved.root,
    path: resolved.path,
    display,
    purpose: "edit",
    protectedPaths,
    openPaths,
    guarded: { allowed },
    checkedPath: resolved.path,
  });
  if (!opened.ok) {
    switch (opened.problem) {
      case "not-found":
      case "exists":
        return { content: await fileNotFoundMessage(resolved.path, display), isError: true };
      case "directory":
        return { content: `Cannot edit "${display}": it is a directory`, isError: true };
      case "special":
        return {
          content:
            `"${display}" is not a regular file (${opened.kind}); edit_file edits files only`,
          isError: true,
        };
      default:
        return { content: opened.message, isError: true };
    }
  }
  // The one verified handle serves the read and the write: the name is never looked up again.
  await using file = opened;
  let bytes: Uint8Array;
  try {
    bytes = await readAll(file.handle, file.stats.size, signal);
  } catch (error) {
    if (error instanceof ReadCancelled) {
      return { content: `Editing "${display}" was cancelled`, isError: true, cancelled: true };
    }
    return { content: `Cannot read "${display}": ${errorMessage(error)}`, isError: true };
  }
  // Claude Code's read before edit: the agent edits only what it has read as it is now.
  const current = bytes;
  const unread = await readBeforeEditRefusal(
    context,
    fileSeen(resolved.path, file.stats),
    () => Promise.resolve(current),
  );
  if (unread !== undefined) return { content: unread, isError: true };
  const decoded = decodeText(bytes);
  if (!decoded.ok) return { content: notTextMessage(display, decoded.reason), isError: true };
  const text = decoded.text;

  const edit = planEdit(text, input.old_string, input.new_string);
  if (edit.positions.length === 0) {
    return { content: noMatchMessage(text, input.old_string, display), isError: true };
  }
  const first = edit.positions[0] ?? 0;
  if (edit.positions.length > 1 && !input.replace_all) {
    const lines = edit.positions.map((position) => lineAt(text, position)).join(", ");
    return {
      content:
        `Found ${edit.positions.length} matches of old_string in ${display} (lines ${lines}); ` +
        "include more surrounding lines to make it unique, or set replace_all to replace every one",
      isError: true,
    };
  }

  const updated = input.replace_all
    ? text.split(edit.oldString).join(edit.newString)
    : text.slice(0, first) + edit.newString + text.slice(first + edit.oldString.length);
  if (signal.aborted) {
    return { content: `Editing "${display}" was cancelled`, isError: true, cancelled: true };
  }
  const written = new TextEncoder().encode(updated);
  try {
    await replaceContent(file.handle, written);
  } catch (error) {
    return { content: `Cannot write "${display}": ${errorMessage(error)}`, isError: true };
  }
  const count = edit.positions.length;
  const line = lineAt(text, first);
  const content = count === 1
    ? `Replaced 1 occurrence in ${display} at line ${line}`
    : `Replaced ${plural(count, "occurrence")} in ${display}; the first is at line ${line}`;
  return {
    content,
    isError: false,
    ...await seenAfterWrite(context, resolved.path, file.handle, written),
  };
}

interface PlannedEdit {
  oldString: string;
  newString: string;
  positions: number[];
}

/**
 * Finds where `oldString` occurs. When the file uses CRLF line endings and the model wrote LF
 * (as read_file shows lines), the strings are converted to CRLF before giving up. Pure.
 */
function planEdit(text: string, oldString: string, newString: string): PlannedEdit {
  const positions = findAll(text, oldString);
  if (positions.length > 0 || !text.includes("\r\n") || !oldString.includes("\n")) {
    return { oldString, newString, positions };
  }
  const toCrlf = (s: string) => s.replace(/\r?\n/g, "\r\n");
  return {
    oldString: toCrlf(oldString),
    newString: toCrlf(newString),
    positions: findAll(text, toCrlf(oldString)),
  };
}

function findAll(text: string, search: string): number[] {
  const positions: number[] = [];
  for (let i = text.indexOf(search); i !== -1; i = text.indexOf(search, i + search.length)) {
    positions.push(i);
  }
  return positions;
}

function lineAt(text: string, position: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < position; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

function noMatchMessage(text: string, oldString: string, display: string): string {
  const base = `No match for old_string in ${display}`;
  if (/^\s*\d+\t/m.test(oldString)) {
    return `${base}; old_string seems to include read_file's line-number prefixes, which are not part of the file`;
  }
  const tokens = oldString.trim().split(/\s+/).filter((token) => token !== "");
  if (tokens.length > 0) {
    const loose = new RegExp(
      tokens.map((token) => token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"),
    );
    const match = loose.exec(text);
    if (match) {
      return `${base}; text that differs only in whitespace exists at line ${
        lineAt(text, match.index)
      }. ` +
        "Read the file again and copy old_string exactly, with the same indentation and line breaks";
    }
  }
  return `${base}; old_string must match the file's current text exactly (read the file again to check)`;
}
