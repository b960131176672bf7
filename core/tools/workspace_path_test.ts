import assert from "node:assert/strict";
import { join } from "node:path";
import {
  guardedFolder,
  protectedPathMessage,
  realPathWithLinks,
  resolveInWorkspace,
} from "./workspace_path.ts";
import { tempDir } from "../../testing/tool_helpers.ts";

Deno.test("workspace path resolves a relative path against the workspace", async () => {
  await using dir = await tempDir();
  await dir.write({ "src/a.ts": "" });
  const root = await Deno.realPath(dir.path);
  assert.deepEqual(await resolveInWorkspace(dir.path, "src/a.ts"), {
    ok: true,
    path: join(root, "src/a.ts"),
    relative: "src/a.ts",
    root,
  });
  assert.deepEqual(await resolveInWorkspace(dir.path, "."), {
    ok: true,
    path: root,
    relative: ".",
    root,
  });
});

Deno.test("workspace path accepts an absolute path inside the workspace", async () => {
  await using dir = await tempDir();
  const root = await Deno.realPath(dir.path);
  const result = await resolveInWorkspace(dir.path, join(root, "notes.md"));
  assert.deepEqual(result, {
    ok: true,
    path: join(root, "notes.md"),
    relative: "notes.md",
    root,
  });
});

Deno.test("workspace path resolves a missing file through its nearest existing ancestor", async () => {
  await using dir = await tempDir();
  const root = await Deno.realPath(dir.path);
  assert.deepEqual(await resolveInWorkspace(dir.path, "new/deep/file.ts"), {
    ok: true,
    path: join(root, "new/deep/file.ts"),
    relative: "new/deep/file.ts",
    root,
  });
});

Deno.test("workspace path allows .. that stays inside the workspace", async () => {
  await using dir = await tempDir();
  const result = await resolveInWorkspace(dir.path, "src/../README.md");
  assert.equal(result.ok && result.relative, "README.md");
});

Deno.test("workspace path refuses .. that leaves the workspace, naming the path", async () => {
  await using dir = await tempDir();
  assert.deepEqual(await resolveInWorkspace(dir.path, "../etc/passwd"), {
    ok: false,
    message: `Path "../etc/passwd" is outside the workspace ${dir.path}`,
  });
});

Deno.test("workspace path refuses an absolute path outside the workspace", async () => {
  await using dir = await tempDir();
  assert.deepEqual(await resolveInWorkspace(dir.path, "/etc/passwd"), {
    ok: false,
    message: `Path "/etc/passwd" is outside the workspace ${dir.path}`,
  });
});

Deno.test("workspace path refuses a sibling directory sharing the workspace's name prefix", async () => {
  await using dir = await tempDir();
  const result = await resolveInWorkspace(dir.path, `${dir.path}-other/x`);
  assert.equal(result.ok, false);
});

Deno.test("workspace path refuses a symlinked file pointing outside", async () => {
  await using dir = await tempDir();
  await using outside = await tempDir();
  await outside.write({ "secret.txt": "secret" });
  await Deno.symlink(join(outside.path, "secret.txt"), join(dir.path, "link.txt"));
  const result = await resolveInWorkspace(dir.path, "link.txt");
  assert.equal(result.ok, false);
  assert.match(
    !result.ok ? result.message : "",
    /^Path "link\.txt" is outside the workspace .*symbolic link/,
  );
});

Deno.test("workspace path refuses a path through a symlinked directory pointing outside", async () => {
  await using dir = await tempDir();
  await using outside = await tempDir();
  await outside.write({ "secret.txt": "secret" });
  await Deno.symlink(outside.path, join(dir.path, "linked"));
  for (const path of ["linked/secret.txt", "linked/not-yet.txt", "linked"]) {
    const result = await resolveInWorkspace(dir.path, path);
    assert.equal(result.ok, false, path);
    assert.match(!result.ok ? result.message : "", new RegExp(`^Path "${path}" is outside`));
  }
});

Deno.test("workspace path refuses a dangling symlink whose target is outside", async () => {
  await using dir = await tempDir();
  await using outside = await tempDir();
  await Deno.symlink(join(outside.path, "created-later.txt"), join(dir.path, "dangling"));
  const result = await resolveInWorkspace(dir.path, "dangling");
  assert.equal(result.ok, false);
});

Deno.test("workspace path follows symlinks that stay inside the workspace", async () => {
  await using dir = await tempDir();
  await dir.write({ "real/a.txt": "a" });
  await Deno.symlink(join(dir.path, "real"), join(dir.path, "alias"));
  const result = await resolveInWorkspace(dir.path, "alias/a.txt");
  assert.equal(result.ok && result.relative, "real/a.txt");
});

Deno.test("workspace path works when the workspace itself is a symlink", async () => {
  await using dir = await tempDir();
  await dir.write({ "ws/a.txt": "a" });
  const link = join(dir.path, "ws-link");
  await Deno.symlink(join(dir.path, "ws"), link);
  const relativeResult = await resolveInWorkspace(link, "a.txt");
  const absoluteResult = await resolveInWorkspace(link, join(link, "a.txt"));
  assert.equal(relativeResult.ok && relativeResult.relative, "a.txt");
  assert.equal(absoluteResult.ok && absoluteResult.relative, "a.txt");
  assert.equal((await resolveInWorkspace(link, "../outside.txt")).ok, false);
});

Deno.test("workspace path refuses an empty path", async () => {
  await using dir = await tempDir();
  assert.deepEqual(await resolveInWorkspace(dir.path, ""), { ok: false, message: "Path is empty" });
});

Deno.test("workspace path names the file that stands where a directory should be", async () => {
  await using dir = await tempDir();
  await dir.write({ "notes.txt": "" });
  assert.deepEqual(await resolveInWorkspace(dir.path, "notes.txt/inner/x"), {
    ok: false,
    message: 'Cannot resolve path "notes.txt/inner/x": "notes.txt" is a file, not a directory',
  });
});

Deno.test("a protected path refuses itself and what lies inside it, and nothing else", async () => {
  await using dir = await tempDir();
  await dir.write({ ".rein/events.jsonl": "", "logs/run.jsonl": "", "a.txt": "" });
  const root = await Deno.realPath(dir.path);
  const guarded = [".rein", join(dir.path, "logs/run.jsonl")];
  const message = (target: string) => protectedPathMessage(dir.path, target, guarded, "write");
  assert.equal(
    await message(join(root, ".rein")),
    `Refusing to write ".rein": it is rein's event log directory; ` +
      "rein records its own history there",
  );
  assert.equal(
    await message(join(root, "logs/run.jsonl")),
    `Refusing to write "logs/run.jsonl": it is rein's event log; rein records its own history there`,
  );
  assert.equal(await message(join(root, "a.txt")), undefined);
  assert.equal(await message(join(root, "logs/other.jsonl")), undefined);
  assert.equal(await message(join(root, ".reins")), undefined);
  assert.equal(await protectedPathMessage(dir.path, join(root, ".rein/x"), [], "edit"), undefined);
});

Deno.test("a protected log directory that holds the workspace leaves the log itself protected", async () => {
  await using dir = await tempDir();
  await dir.write({ "events.jsonl": "", "a.txt": "" });
  const root = await Deno.realPath(dir.path);
  const log = join(dir.path, "events.jsonl");
  const guarded = [dir.path, log];
  assert.equal(
    await protectedPathMessage(dir.path, join(root, "a.txt"), guarded, "edit"),
    undefined,
  );
  assert.match(
    (await protectedPathMessage(dir.path, join(root, "events.jsonl"), guarded, "edit")) ?? "",
    /^Refusing to edit "events.jsonl": it is rein's event log;/,
  );
});

Deno.test("guardedFolder finds .claude or .git as any part of a path, in any case", () => {
  assert.equal(guardedFolder("/w", "/w/.git/config"), ".git");
  assert.equal(guardedFolder("/w", "/w/.git"), ".git");
  assert.equal(guardedFolder("/w", "/w/vendor/lib/.git/hooks/pre-commit"), ".git");
  assert.equal(guardedFolder("/w", "/w/.Claude/settings.json"), ".claude");
  assert.equal(guardedFolder("/w", "/w/.gitignore"), undefined);
  assert.equal(guardedFolder("/w", "/w/src/claude/x"), undefined);
  // The workspace's own place does not count, only what lies below it.
  assert.equal(guardedFolder("/home/a/.claude/ws", "/home/a/.claude/ws/x"), undefined);
  assert.equal(guardedFolder("/w", "/elsewhere/.git/config"), ".git");
});

Deno.test("realPathWithLinks follows every link, the last and dangling ones too, and notes where each led", async () => {
  await using dir = await tempDir();
  await dir.write({ ".git/config": "", "d/f": "" });
  const root = await Deno.realPath(dir.path);
  await Deno.symlink(".git", join(root, "g"));
  await Deno.symlink("g/config", join(root, "gc"));
  await Deno.symlink("missing/new.txt", join(root, "dangling"));
  assert.deepEqual(await realPathWithLinks(join(root, "gc")), {
    real: join(root, ".git/config"),
    via: [join(root, "g/config"), join(root, ".git")],
  });
  assert.deepEqual(await realPathWithLinks(join(root, "g/../d/f")), {
    real: join(root, "d/f"),
    via: [],
  });
  assert.deepEqual(await realPathWithLinks(join(root, "dangling")), {
    real: join(root, "missing/new.txt"),
    via: [join(root, "missing/new.txt")],
  });
  assert.deepEqual(await realPathWithLinks(join(root, "d/f/x")), {
    real: join(root, "d/f/x"),
    via: [],
  });
});

Deno.test("a protected folder refuses reads too, but for an open folder inside it reached without links", async () => {
  await using dir = await tempDir();
  await dir.write({ ".rein/snapshots/s.json": "", ".rein/memory/MEMORY.md": "" });
  const root = await Deno.realPath(dir.path);
  const check = (target: string) =>
    protectedPathMessage(dir.path, join(root, target), [".rein"], "read", [".rein/memory"]);
  assert.match(
    (await check(".rein/snapshots/s.json")) ?? "",
    /^Refusing to read "\.rein\/snapshots\/s\.json": it is in "\.rein"/,
  );
  assert.equal(await check(".rein/memory/MEMORY.md"), undefined);
  assert.equal(await check(".rein/memory/new/x.md"), undefined);
  await Deno.remove(join(root, ".rein/memory"), { recursive: true });
  await Deno.symlink("snapshots", join(root, ".rein/memory"));
  assert.match((await check(".rein/snapshots/s.json")) ?? "", /^Refusing to read/);
});
