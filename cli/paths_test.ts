import assert from "node:assert/strict";
import { join } from "node:path";
import { callerDir, defaultLogPath, resolveWorkspace, userPath } from "./paths.ts";
import type { RuntimeEnv } from "./paths.ts";

function env(vars: Record<string, string> = {}): RuntimeEnv {
  return { get: (name) => vars[name], toObject: () => ({ ...vars }) };
}

async function tempDir(): Promise<{ path: string } & AsyncDisposable> {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-paths-" }));
  return { path, [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }) };
}

Deno.test("callerDir is REIN_CALLER_DIR when set, else the process's directory", () => {
  assert.equal(
    callerDir(env({ REIN_CALLER_DIR: "/home/me/project" }), "/opt/rein"),
    "/home/me/project",
  );
  assert.equal(callerDir(env(), "/opt/rein"), "/opt/rein");
  assert.equal(callerDir(env({ REIN_CALLER_DIR: "" }), "/opt/rein"), "/opt/rein");
});

Deno.test("callerDir does not take INIT_CWD for where the user was", () => {
  assert.equal(callerDir(env({ INIT_CWD: "/home/me/npm-project" }), "/opt/rein"), "/opt/rein");
});

Deno.test("userPath resolves a relative path against the caller's directory", () => {
  const caller = env({ REIN_CALLER_DIR: "/home/me/project" });
  assert.equal(userPath("logs/a.jsonl", caller, "/opt/rein"), "/home/me/project/logs/a.jsonl");
  assert.equal(userPath("../b.jsonl", caller, "/opt/rein"), "/home/me/b.jsonl");
  assert.equal(userPath("/var/log/c.jsonl", caller, "/opt/rein"), "/var/log/c.jsonl");
  assert.equal(userPath("d.jsonl", env(), "/opt/rein"), "/opt/rein/d.jsonl");
});

Deno.test("resolveWorkspace is the caller's directory without --workspace", async () => {
  await using dir = await tempDir();
  assert.equal(resolveWorkspace(undefined, env({ REIN_CALLER_DIR: dir.path }), "/"), dir.path);
});

Deno.test("resolveWorkspace takes a relative --workspace from the caller's directory", async () => {
  await using dir = await tempDir();
  await Deno.mkdir(join(dir.path, "sub"));
  assert.equal(
    resolveWorkspace("sub", env({ REIN_CALLER_DIR: dir.path }), "/"),
    join(dir.path, "sub"),
  );
});

Deno.test("resolveWorkspace of a missing directory names the path", async () => {
  await using dir = await tempDir();
  const missing = join(dir.path, "missing");
  assert.throws(() => resolveWorkspace("missing", env({ REIN_CALLER_DIR: dir.path }), "/"), {
    message: `Workspace "${missing}" does not exist`,
  });
});

Deno.test("resolveWorkspace of a file names the path", async () => {
  await using dir = await tempDir();
  const file = join(dir.path, "notes.txt");
  await Deno.writeTextFile(file, "not a directory");
  assert.throws(() => resolveWorkspace(file, env(), "/"), {
    message: `Workspace "${file}" is not a directory`,
  });
});

Deno.test("the default log of a workspace is .rein/events.jsonl inside it", () => {
  assert.equal(defaultLogPath("/home/me/project"), "/home/me/project/.rein/events.jsonl");
  assert.equal(defaultLogPath("/home/me/project/"), "/home/me/project/.rein/events.jsonl");
});
