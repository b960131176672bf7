/**
 * The file tools against a hostile repository: hard links to files outside the workspace or to
 * rein's event log, symlinks and directories swapped by a background process while the tools
 * run, catastrophic regular expressions and cancellation.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createBaseTools } from "../core/tools/base_tools.ts";
import type { AnyTool, ToolResult } from "../core/tools/tool.ts";
import { callContext, type TempDir, tempDir } from "../testing/tool_helpers.ts";

const linux = Deno.build.os === "linux";

function tools(workspace: string): Record<string, AnyTool> {
  const protectedPaths = [join(workspace, ".rein"), join(workspace, ".rein/events.jsonl")];
  return Object.fromEntries(
    createBaseTools({ workspace, protectedPaths }).map((tool) => [tool.name, tool]),
  );
}

function run(tool: AnyTool | undefined, input: unknown): Promise<ToolResult> {
  assert.ok(tool);
  return tool.run(input, callContext());
}

/** A workspace with an event log and an outside directory holding a secret. */
async function hostileRepo(): Promise<{ ws: TempDir; outside: TempDir } & AsyncDisposable> {
  const ws = await tempDir("rein_hostile_");
  const outside = await tempDir("rein_outside_");
  await ws.write({ ".rein/events.jsonl": '{"type":"session.started"}\n', "ok.txt": "fine\n" });
  await outside.write({ "secret.txt": "SECRET x y\n", "f.txt": "SECRET x y\n" });
  return {
    ws,
    outside,
    async [Symbol.asyncDispose]() {
      await ws[Symbol.asyncDispose]();
      await outside[Symbol.asyncDispose]();
    },
  };
}

Deno.test({
  name: "a hard link to a file outside the workspace is neither read nor written",
  ignore: !linux,
  async fn() {
    await using repo = await hostileRepo();
    const { ws, outside } = repo;
    await Deno.link(join(outside.path, "secret.txt"), join(ws.path, "innocent.txt"));
    const t = tools(ws.path);
    const refusal = (verb: string) =>
      `Refusing to ${verb} "innocent.txt": it has 2 hard links, so it may be a file outside the ` +
      "workspace or rein's event log under another name; the file tools do not read or write " +
      "hard-linked files";
    assert.deepEqual(await run(t.read_file, { path: "innocent.txt" }), {
      content: refusal("read"),
      isError: true,
    });
    assert.deepEqual(await run(t.write_file, { path: "innocent.txt", content: "pwned" }), {
      content: refusal("write"),
      isError: true,
    });
    assert.deepEqual(
      await run(t.edit_file, { path: "innocent.txt", old_string: "SECRET", new_string: "pwned" }),
      { content: refusal("edit"), isError: true },
    );
    assert.equal(await Deno.readTextFile(join(outside.path, "secret.txt")), "SECRET x y\n");
  },
});

Deno.test({
  name: "a hard link to rein's event log cannot truncate or rewrite the log",
  ignore: !linux,
  async fn() {
    await using repo = await hostileRepo();
    const { ws } = repo;
    const log = join(ws.path, ".rein/events.jsonl");
    await Deno.link(log, join(ws.path, "notes.txt"));
    const t = tools(ws.path);
    const written = await run(t.write_file, { path: "notes.txt", content: "" });
    assert.equal(written.isError, true);
    assert.match(written.content, /^Refusing to write "notes.txt": it has 2 hard links/);
    const edited = await run(t.edit_file, {
      path: "notes.txt",
      old_string: "session.started",
      new_string: "forged",
    });
    assert.match(edited.content, /^Refusing to edit "notes.txt": it has 2 hard links/);
    const read = await run(t.read_file, { path: "notes.txt" });
    assert.match(read.content, /^Refusing to read "notes.txt": it has 2 hard links/);
    assert.equal(await Deno.readTextFile(log), '{"type":"session.started"}\n');
  },
});

/**
 * Starts a process that swaps `ws/d` between a real directory (holding `f.txt` with "x") and a
 * symlink to the outside directory, and `ws/link` between a symlink to an inside file and one to
 * the outside secret, as fast as it can, until `stop` exists. Returns a function that stops it and
 * gives the number of swaps made.
 */
function startSwapper(ws: string, outside: string): () => Promise<number> {
  const code = `
    const ws = ${JSON.stringify(ws)};
    const outside = ${JSON.stringify(outside)};
    Deno.mkdirSync(ws + "/d.real");
    Deno.writeTextFileSync(ws + "/d.real/f.txt", "x\\n");
    Deno.symlinkSync(outside, ws + "/d.link");
    Deno.symlinkSync(outside + "/secret.txt", ws + "/link.out");
    Deno.symlinkSync(ws + "/ok.txt", ws + "/link.in");
    let swaps = 0;
    const dwell = () => {
      const until = performance.now() + Math.random() * 0.2;
      while (performance.now() < until);
    };
    // A tool may create "d" while it is absent: that directory is removed to put ours back.
    const place = (from, to) => {
      for (;;) {
        try { Deno.renameSync(from, to); swaps++; return; } catch {}
        try { Deno.removeSync(to, { recursive: true }); } catch {}
      }
    };
    const link = (target) => {
      Deno.symlinkSync(target, ws + "/link.tmp");
      Deno.renameSync(ws + "/link.tmp", ws + "/link");
      swaps++;
    };
    for (let i = 0; ; i++) {
      if (i % 64 === 0) { try { Deno.statSync(ws + "/stop"); break; } catch {} }
      place(ws + "/d.real", ws + "/d"); dwell(); Deno.renameSync(ws + "/d", ws + "/d.real");
      place(ws + "/d.link", ws + "/d"); dwell(); Deno.renameSync(ws + "/d", ws + "/d.link");
      link(outside + "/secret.txt"); dwell();
      link(ws + "/ok.txt"); dwell();
    }
    console.log(swaps);
  `;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  return async () => {
    await Deno.writeTextFile(join(ws, "stop"), "");
    const output = await child.output();
    return Number(new TextDecoder().decode(output.stdout).trim());
  };
}

async function waitFor(path: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await Deno.lstat(path);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  throw new Error(`"${path}" did not appear`);
}

Deno.test({
  name: "symlinks and directories swapped during the calls never let a tool reach outside",
  ignore: !linux,
  async fn() {
    await using repo = await hostileRepo();
    const { ws, outside } = repo;
    const t = tools(ws.path);
    const stop = startSwapper(ws.path, outside.path);
    let swaps = 0;
    const outcomes = new Map<string, number>();
    const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    try {
      await waitFor(join(ws.path, "d.link"));
      for (let i = 0; i < 600; i++) {
        for (const path of ["d/f.txt", "link"]) {
          const read = await run(t.read_file, { path });
          assert.ok(!read.content.includes("SECRET"), read.content);
          count(read.isError ? "read refused" : "read inside");
        }
        if (i % 10 === 0) {
          for (const path of [".", "d"]) {
            const found = await run(t.grep, { pattern: "SECRET", path, output_mode: "content" });
            assert.ok(!found.content.includes("SECRET x"), found.content);
          }
        }
        const written = await run(t.write_file, { path: "d/f.txt", content: "x\n" });
        count(written.isError ? "write refused" : "write inside");
        await run(t.write_file, { path: "link", content: "fine\n" });
        await run(t.write_file, { path: `d/new${i}.txt`, content: "pwned\n" });
        const edit = i % 2 === 0 ? { old_string: "x", new_string: "y" } : {
          old_string: "y",
          new_string: "x",
        };
        await run(t.edit_file, { path: "d/f.txt", ...edit });
      }
    } finally {
      swaps = await stop();
    }
    assert.ok(swaps > 1000, `only ${swaps} swaps`);
    assert.ok((outcomes.get("read inside") ?? 0) > 0, JSON.stringify([...outcomes]));
    for (const name of ["secret.txt", "f.txt"]) {
      assert.equal(await Deno.readTextFile(join(outside.path, name)), "SECRET x y\n", name);
    }
    // A file created while the directory was swapped may be left outside, but always empty.
    for await (const entry of Deno.readDir(outside.path)) {
      if (entry.name === "secret.txt" || entry.name === "f.txt") continue;
      assert.equal(await Deno.readTextFile(join(outside.path, entry.name)), "", entry.name);
    }
  },
});

Deno.test({
  name: "grep and glob leave hard-linked files out and say so",
  ignore: !linux,
  async fn() {
    await using repo = await hostileRepo();
    const { ws, outside } = repo;
    await Deno.link(join(outside.path, "secret.txt"), join(ws.path, "innocent.txt"));
    await Deno.link(join(ws.path, ".rein/events.jsonl"), join(ws.path, "log.txt"));
    const t = tools(ws.path);
    assert.deepEqual(await run(t.grep, { pattern: "SECRET|session" }), {
      content: "No matches for /SECRET|session/\n[2 files not searched: each has several hard " +
        "links, so it may be a file outside the workspace]",
      isError: false,
    });
    assert.deepEqual(await run(t.grep, { pattern: "fine|SECRET", output_mode: "content" }), {
      content: "ok.txt:1:fine\n[2 files not searched: each has several hard links, so it may " +
        "be a file outside the workspace]",
      isError: false,
    });
    assert.deepEqual(await run(t.glob, { pattern: "*.txt" }), {
      content: "ok.txt\n[2 matching files left out: each has several hard links, so it may be a " +
        "file outside the workspace]",
      isError: false,
    });
  },
});

Deno.test("grep answers a catastrophic pattern promptly and the turn's cancel stops it", async () => {
  await using repo = await hostileRepo();
  const { ws } = repo;
  await ws.write({ "evil.txt": `${"a".repeat(50_000)}!\n` });
  const t = tools(ws.path);
  const started = Date.now();
  const result = await run(t.grep, { pattern: "(a+)+$" });
  assert.ok(Date.now() - started < 5000);
  assert.deepEqual(result, { content: "No matches for /(a+)+$/", isError: false });
  // Look-behind runs in JavaScript's backtracking engine, which the cancel terminates.
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 200);
  assert.ok(t.grep);
  const cancelled = await t.grep.run(
    { pattern: "(?<=x)|(a|a)+$" },
    callContext(controller.signal),
  );
  assert.ok(Date.now() - started < 5000);
  assert.deepEqual(cancelled, { content: "Search cancelled", isError: true, cancelled: true });
});

Deno.test("every file tool stops when the turn is cancelled", async () => {
  await using repo = await hostileRepo();
  const { ws } = repo;
  const t = tools(ws.path);
  const aborted = callContext(AbortSignal.abort());
  for (
    const [name, input] of [["glob", { pattern: "**/*" }], ["grep", { pattern: "x" }]] as const
  ) {
    assert.deepEqual(await t[name]?.run(input, aborted), {
      content: "Search cancelled",
      isError: true,
      cancelled: true,
    }, name);
  }
  assert.deepEqual(await t.read_file?.run({ path: "ok.txt" }, aborted), {
    content: 'Reading "ok.txt" was cancelled',
    isError: true,
    cancelled: true,
  });
  assert.deepEqual(
    await t.edit_file?.run({ path: "ok.txt", old_string: "fine", new_string: "x" }, aborted),
    { content: 'Editing "ok.txt" was cancelled', isError: true, cancelled: true },
  );
  assert.equal(await Deno.readTextFile(join(ws.path, "ok.txt")), "fine\n");

  // A read of a huge file stops between chunks.
  const chunk = new TextEncoder().encode("a line of a huge file\n".repeat(50_000));
  {
    using huge = await Deno.open(join(ws.path, "huge.txt"), { write: true, create: true });
    for (let i = 0; i < 60; i++) await huge.write(chunk);
  }
  const controller = new AbortController();
  const started = Date.now();
  const reading = t.read_file?.run({ path: "huge.txt" }, callContext(controller.signal));
  setTimeout(() => controller.abort(), 20);
  assert.deepEqual(await reading, {
    content: 'Reading "huge.txt" was cancelled',
    isError: true,
    cancelled: true,
  });
  assert.ok(Date.now() - started < 2000);
});
