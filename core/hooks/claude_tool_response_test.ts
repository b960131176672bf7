import assert from "node:assert/strict";
import { claudeToolResponse } from "./claude_tool_response.ts";

const CWD = "/ws";
const done = (content: string, durationMs = 12) => ({ content, durationMs });

Deno.test("claudeToolResponse: bash gives stdout without rein's notes", () => {
  assert.deepEqual(claudeToolResponse("bash", { command: "echo hi" }, done("hi\nthere"), CWD), {
    stdout: "hi\nthere",
    stderr: "",
    interrupted: false,
    isImage: false,
    noOutputExpected: false,
  });
  const quiet = claudeToolResponse("bash", { command: "true" }, done("(No output)"), CWD);
  assert.equal((quiet as { stdout: string }).stdout, "");
});

Deno.test("claudeToolResponse: read_file gives the file's lines without numbers, and its extent", () => {
  const text = "     3\tthree\n     4\tfour\n[… 6 more lines; use offset 5 to continue]";
  assert.deepEqual(claudeToolResponse("read_file", { path: "a.ts", offset: 3 }, done(text), CWD), {
    type: "text",
    file: {
      filePath: "/ws/a.ts",
      content: "three\nfour",
      numLines: 2,
      startLine: 3,
      totalLines: 10,
    },
  });
  const empty = claudeToolResponse("read_file", { path: "e" }, done('File "e" is empty'), CWD);
  assert.deepEqual(empty, {
    type: "text",
    file: { filePath: "/ws/e", content: "", numLines: 0, startLine: 1, totalLines: 0 },
  });
});

Deno.test("claudeToolResponse: write_file says create or update; edit_file gives a hunk", () => {
  const input = { path: "d/a.txt", content: "x\n" };
  const created = claudeToolResponse(
    "write_file",
    input,
    done("Wrote 1 line (2 bytes) to new file d/a.txt"),
    CWD,
  );
  assert.deepEqual(created, {
    type: "create",
    filePath: "/ws/d/a.txt",
    content: "x\n",
    structuredPatch: [],
    originalFile: null,
  });
  const updated = claudeToolResponse(
    "write_file",
    input,
    done("Wrote 1 line (2 bytes) to d/a.txt, replacing its previous content"),
    CWD,
  );
  assert.equal((updated as { type: string }).type, "update");
  const edit = { path: "a.txt", old_string: "a", new_string: "b\nc", replace_all: false };
  assert.deepEqual(
    claudeToolResponse("edit_file", edit, done("Replaced 1 occurrence in a.txt at line 4"), CWD),
    {
      filePath: "/ws/a.txt",
      oldString: "a",
      newString: "b\nc",
      originalFile: null,
      structuredPatch: [{
        oldStart: 4,
        oldLines: 1,
        newStart: 4,
        newLines: 2,
        lines: ["-a", "+b", "+c"],
      }],
      userModified: false,
      replaceAll: false,
    },
  );
});

Deno.test("claudeToolResponse: glob and grep give absolute filenames and counts", () => {
  assert.deepEqual(
    claudeToolResponse(
      "glob",
      { pattern: "*.ts" },
      done("a.ts\nsrc/b.ts\n[… 3 files not shown]", 7),
      CWD,
    ),
    { filenames: ["/ws/a.ts", "/ws/src/b.ts"], durationMs: 7, numFiles: 2, truncated: true },
  );
  assert.deepEqual(
    claudeToolResponse("glob", { pattern: "*.x" }, done('No files match "*.x"'), CWD),
    {
      filenames: [],
      durationMs: 12,
      numFiles: 0,
      truncated: false,
    },
  );
  assert.deepEqual(claudeToolResponse("grep", { pattern: "x" }, done("a.ts\nb.ts"), CWD), {
    mode: "files_with_matches",
    filenames: ["/ws/a.ts", "/ws/b.ts"],
    numFiles: 2,
  });
  assert.deepEqual(
    claudeToolResponse(
      "grep",
      { pattern: "x", output_mode: "content" },
      done("a.ts:1:x\na.ts:3:xx"),
      CWD,
    ),
    {
      mode: "content",
      filenames: ["/ws/a.ts"],
      numFiles: 1,
      content: "a.ts:1:x\na.ts:3:xx",
      numLines: 2,
    },
  );
});

Deno.test("claudeToolResponse: todo_write gives the old and new lists; task its text and totals; others the text", () => {
  const old = [{ content: "A", status: "pending" as const, activeForm: "Doing A" }];
  const todos = [{ content: "A", status: "completed", activeForm: "Doing A" }];
  assert.deepEqual(
    claudeToolResponse("todo_write", { todos }, done("ok"), CWD, { oldTodos: old }),
    {
      oldTodos: old,
      newTodos: todos,
    },
  );
  assert.deepEqual(claudeToolResponse("task", { prompt: "p" }, done("found it", 900), CWD), {
    status: "completed",
    prompt: "p",
    content: [{ type: "text", text: "found it" }],
    totalDurationMs: 900,
  });
  assert.equal(claudeToolResponse("mcp__x__y", {}, done("raw"), CWD), "raw");
});

Deno.test("claudeToolResponse: a result with content blocks (an MCP tool's image) gives the blocks", () => {
  const blocks = [
    { text: "Here:", type: "text" as const },
    {
      source: { data: "AAAA", media_type: "image/png" as const, type: "base64" as const },
      type: "image" as const,
    },
  ];
  assert.deepEqual(
    claudeToolResponse("mcp__s__shot", {}, { content: "Here:", durationMs: 1, blocks }, CWD),
    blocks,
  );
  assert.equal(claudeToolResponse("mcp__s__echo", {}, done("Echo: hi"), CWD), "Echo: hi");
});
