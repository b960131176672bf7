/**
 * git under the real bwrap sandbox, against a hostile model: each attack tries to leave code or
 * configuration that git would run outside the sandbox at the person's next git command; real
 * bash, real bwrap and real git in temporary repositories. Normal work (add, commit, branch,
 * checkout, stash, fetch, status) still works inside. Skipped where bwrap cannot run.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { resolveSandbox } from "../core/sandbox/resolve_sandbox.ts";
import { DEFAULT_SANDBOX_SETTINGS } from "../core/sandbox/sandbox_settings.ts";
import { runHook } from "../core/hooks/tool_event_hooks.ts";
import { createBashTool } from "../core/tools/bash.ts";
import type { ToolResult } from "../core/tools/tool.ts";
import { callContext, type TempDir, tempDir } from "../testing/tool_helpers.ts";

const usable = await resolveSandbox({
  settings: DEFAULT_SANDBOX_SETTINGS,
  workspace: Deno.cwd(),
  env: {},
  bwrap: "bwrap",
});
const ignore = !(usable.ok && usable.sandbox);
if (ignore) {
  console.warn(`Skipping the sandbox git tests: ${usable.ok ? usable.notice : "no sandbox"}`);
}

/** The hook and fsmonitor command the attacks plant: it writes this file when git runs it. */
const PWNED = "/var/tmp/rein_sandbox_git_pwned";

/** git on the host, as the person runs it: no global or system config, a fixed identity. */
async function git(dir: string, ...args: string[]): Promise<{ code: number; output: string }> {
  const { code, stdout, stderr } = await new Deno.Command("git", {
    args: ["-c", "user.name=Person", "-c", "user.email=p@example.com", ...args],
    cwd: dir,
    env: { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    stdin: "null",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code, output: (decode(stdout) + decode(stderr)).trim() };
}

/**
 * A workspace holding a repository with one commit, its identity in its own config. In `/tmp`
 * unless `dir` says otherwise (the sandbox's private /tmp hides the host's, but a workspace).
 */
async function repository(dir?: string): Promise<TempDir> {
  const ws = dir === undefined ? await tempDir("rein_sandbox_git_") : await dirIn(dir);
  await git(ws.path, "init", "-q", "-b", "main");
  await git(ws.path, "config", "user.name", "Agent");
  await git(ws.path, "config", "user.email", "agent@example.com");
  await Deno.writeTextFile(join(ws.path, "README.md"), "hello\n");
  await git(ws.path, "add", "README.md");
  await git(ws.path, "commit", "-q", "-m", "first");
  return ws;
}

/**
 * A bash tool sandboxed over `workspace` as rein's runtime builds it: `.rein/` and `.claude/`
 * read-only; git's files are the sandbox's own business.
 */
async function sandboxedBash(workspace: string): Promise<(command: string) => Promise<ToolResult>> {
  const resolved = await resolveSandbox({
    settings: DEFAULT_SANDBOX_SETTINGS,
    workspace,
    readOnly: [join(workspace, ".rein"), join(workspace, ".claude")],
    env: Deno.env.toObject(),
  });
  assert.ok(resolved.ok && resolved.sandbox, "the sandbox resolves");
  const bash = createBashTool({ workspace, sandbox: resolved.sandbox });
  return (command) => bash.run({ command }, callContext());
}

/** A temporary directory in `dir`. */
async function dirIn(dir: string): Promise<TempDir> {
  const path = await Deno.makeTempDir({ dir, prefix: "rein_sandbox_git_" });
  return {
    path,
    write: () => Promise.reject(new Error("Not needed")),
    [Symbol.asyncDispose]: () => Deno.remove(path, { recursive: true }),
  };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/** What the person's next git commands run: status, a commit. Asserts the planted code did not. */
async function assertPersonsGitRunsNothing(ws: string): Promise<void> {
  await Deno.remove(PWNED).catch(() => {});
  await git(ws, "status");
  await Deno.writeTextFile(join(ws, "person.txt"), "mine\n");
  await git(ws, "add", "person.txt");
  await git(ws, "commit", "-q", "-m", "the person's commit");
  await git(ws, "checkout", "-q", "-b", "person-branch");
  assert.equal(await exists(PWNED), false, "the planted code ran outside the sandbox");
  assert.equal((await git(ws, "config", "--get", "core.fsmonitor")).output, "");
}

const EVIL_HOOK = `#!/bin/sh\ntouch ${PWNED}\n`;

Deno.test({
  name: "a sandboxed command cannot rename .git away and build a new one with a hook",
  ignore,
  async fn() {
    await using ws = await repository();
    const head = await git(ws.path, "rev-parse", "HEAD");
    const run = await sandboxedBash(ws.path);
    const result = await run([
      "mv .git .git-old || exit 1",
      "git init -q .",
      `printf '#!/bin/sh\\ntouch ${PWNED}\\n' > .git/hooks/pre-commit`,
      "chmod +x .git/hooks/pre-commit",
    ].join("\n"));
    assert.equal(result.isError, true, result.content);
    assert.match(result.content, /Device or resource busy/);
    assert.equal(await exists(join(ws.path, ".git-old")), false);
    assert.equal(await exists(join(ws.path, ".git", "hooks", "pre-commit")), false);
    assert.deepEqual(await git(ws.path, "rev-parse", "HEAD"), head);
    // Nor its hooks or config swapped in place.
    for (const entry of ["hooks", "config"]) {
      const swapped = await run(`mv .git/${entry} .git/${entry}-old || rm -rf .git/${entry}`);
      assert.equal(swapped.isError, true, swapped.content);
      assert.equal(await exists(join(ws.path, ".git", `${entry}-old`)), false);
    }
    assert.equal(await exists(join(ws.path, ".git", "config")), true);
    await Deno.remove(PWNED).catch(() => {});
    assert.equal((await git(ws.path, "commit", "-q", "--allow-empty", "-m", "x")).code, 0);
    assert.equal(await exists(PWNED), false);
  },
});

Deno.test({
  name: "a .git/commondir a sandboxed command writes is gone when the call ends",
  ignore,
  async fn() {
    await using ws = await repository();
    const run = await sandboxedBash(ws.path);
    // A whole git dir of the command's making, whose config runs a command at every status.
    const result = await run([
      "cp -r .git/. evil",
      "rm -rf evil/hooks",
      `git config -f evil/config core.fsmonitor 'touch ${PWNED}; false'`,
      "echo ../evil > .git/commondir",
      "cat .git/commondir",
    ].join(" && "));
    assert.equal(result.content, "../evil", "no mount can stop it: the root stays writable");
    assert.equal(await exists(join(ws.path, ".git", "commondir")), false);
    await assertPersonsGitRunsNothing(ws.path);
  },
});

Deno.test({
  name: "a .git/commondir a project hook writes is gone when the hook ends",
  ignore,
  async fn() {
    await using ws = await repository();
    const resolved = await resolveSandbox({
      settings: DEFAULT_SANDBOX_SETTINGS,
      workspace: ws.path,
      readOnly: [join(ws.path, ".rein"), join(ws.path, ".claude")],
      env: Deno.env.toObject(),
    });
    assert.ok(resolved.ok && resolved.sandbox, "the sandbox resolves");
    const command = [
      "cp -r .git/. evil",
      "rm -rf evil/hooks",
      `git config -f evil/config core.fsmonitor 'touch ${PWNED}; false'`,
      "echo ../evil > .git/commondir",
    ].join(" && ");
    const ran = await runHook(
      { event: "UserPromptSubmit", command, timeoutMs: 30_000 },
      {
        input: {},
        callId: undefined,
        trusted: new Set(),
        sandbox: resolved.sandbox,
        signal: new AbortController().signal,
      },
      { workspace: ws.path, transcriptPath: join(ws.path, ".rein/events.jsonl"), env: {} },
    );
    assert.equal(ran.exitCode, 0, ran.stderr);
    assert.equal(await exists(join(ws.path, ".git", "commondir")), false);
    await assertPersonsGitRunsNothing(ws.path);
  },
});

Deno.test({
  name: "git init in a sandboxed workspace without .git fails and leaves no repository",
  ignore,
  async fn() {
    await using ws = await tempDir("rein_sandbox_git_");
    const run = await sandboxedBash(ws.path);
    const init = await run("git init -q . && echo created");
    assert.equal(init.isError, true, init.content);
    assert.doesNotMatch(init.content, /created/);
    const byHand = await run("mkdir -p .git/hooks; echo x > .git/HEAD");
    assert.equal(byHand.isError, true, byHand.content);
    assert.deepEqual([...Deno.readDirSync(join(ws.path, ".git"))], [], "an empty placeholder");
    // An empty .git directory is no repository to git: the person's own git init still works.
    assert.equal((await git(ws.path, "init", "-q")).code, 0);
  },
});

Deno.test({
  name: "sandboxed commands cannot write git's configuration, info, hooks or a submodule's hooks",
  ignore,
  async fn() {
    await using ws = await repository();
    await using upstream = await repository();
    // A submodule, its git dir absorbed into .git/modules/sub.
    const added = await git(
      ws.path,
      "-c",
      "protocol.file.allow=always",
      "submodule",
      "add",
      "-q",
      upstream.path,
      "sub",
    );
    assert.equal(added.code, 0, added.output);
    await git(ws.path, "commit", "-q", "-m", "submodule");
    // A repository whose config reads config.worktree (sparse checkouts turn this on).
    await git(ws.path, "config", "core.repositoryformatversion", "1");
    await git(ws.path, "config", "extensions.worktreeConfig", "true");
    const run = await sandboxedBash(ws.path);
    const writes: Record<string, string> = {
      ".git/config.worktree": `[core]\n\tfsmonitor = touch ${PWNED}\n`,
      ".git/info/attributes": "* filter=evil\n",
      ".git/hooks/pre-commit": EVIL_HOOK,
      ".git/modules/sub/hooks/post-checkout": EVIL_HOOK,
      ".git/modules/sub/config": `[core]\n\tfsmonitor = touch ${PWNED}\n`,
    };
    for (const [path, text] of Object.entries(writes)) {
      const before = await Deno.readTextFile(join(ws.path, path)).catch(() => undefined);
      const result = await run(`printf '%s' '${text}' > ${path} && chmod +x ${path}`);
      assert.equal(result.isError, true, `${path}: ${result.content}`);
      assert.match(result.content, /Read-only file system/, path);
      assert.equal(await Deno.readTextFile(join(ws.path, path)).catch(() => undefined), before);
    }
    const config = await run("git config core.fsmonitor 'touch /tmp/x'");
    assert.equal(config.isError, true, "git config cannot change the configuration");
    await assertPersonsGitRunsNothing(ws.path);
    assert.equal((await git(join(ws.path, "sub"), "checkout", "-q", "-b", "b")).code, 0);
    assert.equal(await exists(PWNED), false);
  },
});

Deno.test({
  name:
    "a workspace whose .git is a gitdir file: neither the file nor the git dir can be redirected",
  ignore,
  async fn() {
    await using ws = await tempDir("rein_sandbox_git_");
    const init = await git(ws.path, "init", "-q", "--separate-git-dir", join(ws.path, "repo.git"));
    assert.equal(init.code, 0, init.output);
    assert.match(await Deno.readTextFile(join(ws.path, ".git")), /^gitdir: /);
    const run = await sandboxedBash(ws.path);
    for (
      const command of [
        "echo 'gitdir: evil' > .git",
        "mv .git .git-old",
        `printf '#!/bin/sh\\ntouch ${PWNED}\\n' > repo.git/hooks/pre-commit`,
        "mv repo.git repo-old.git",
      ]
    ) {
      const result = await run(command);
      assert.equal(result.isError, true, `${command}: ${result.content}`);
    }
    assert.match(await Deno.readTextFile(join(ws.path, ".git")), /repo\.git/);
    assert.equal(await exists(join(ws.path, "repo.git", "hooks", "pre-commit")), false);
    assert.deepEqual(await run("git status > /dev/null && echo ok"), {
      content: "ok",
      isError: false,
    });
  },
});

Deno.test({
  name: "the hooks directory core.hooksPath names in the workspace is read-only",
  ignore,
  async fn() {
    await using ws = await repository();
    await git(ws.path, "config", "core.hooksPath", ".githooks");
    const run = await sandboxedBash(ws.path);
    const result = await run(
      `mkdir -p .githooks; printf '#!/bin/sh\\ntouch ${PWNED}\\n' > .githooks/pre-commit; ` +
        "chmod +x .githooks/pre-commit",
    );
    assert.equal(result.isError, true, result.content);
    assert.equal(await exists(join(ws.path, ".githooks", "pre-commit")), false);
    await assertPersonsGitRunsNothing(ws.path);
  },
});

Deno.test({
  name: "add, commit, branch, checkout, stash, fetch and status work in the sandbox",
  ignore,
  async fn() {
    await using ws = await repository();
    // Outside /tmp, which the sandbox's private /tmp would hide.
    await using remote = await repository("/var/tmp");
    await Deno.writeTextFile(join(remote.path, "upstream.txt"), "upstream\n");
    await git(remote.path, "add", "upstream.txt");
    await git(remote.path, "commit", "-q", "-m", "upstream");
    await git(ws.path, "remote", "add", "origin", remote.path);
    const run = await sandboxedBash(ws.path);
    const result = await run([
      "echo one > one.txt && git add one.txt && git commit -q -m one",
      "git branch side && git checkout -q -b feature",
      "echo two >> one.txt && git stash -q && git stash list | wc -l",
      "git stash pop -q && git commit -q -am two",
      "git fetch -q origin && git log --oneline origin/main | wc -l",
      "git checkout -q main && git merge -q --no-edit feature",
      // gc succeeds, but says it cannot update .git/info/refs (info/ is read-only).
      "git gc -q 2> /dev/null",
      "git status --short && git branch --show-current",
    ].join(" && "));
    assert.deepEqual(result, { content: "1\n2\nmain", isError: false });
    const log = await git(ws.path, "log", "--format=%s", "main");
    assert.deepEqual(log.output.split("\n"), ["two", "one", "first"]);
    assert.equal((await git(ws.path, "rev-parse", "--verify", "-q", "side")).code, 0);
  },
});
