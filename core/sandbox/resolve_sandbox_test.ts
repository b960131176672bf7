import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../../testing/tool_helpers.ts";
import type { BashSandbox } from "../tools/bash.ts";
import { resolveSandbox, type SandboxOptions } from "./resolve_sandbox.ts";
import { DEFAULT_SANDBOX_SETTINGS } from "./sandbox_settings.ts";

async function bwrapWorks(): Promise<boolean> {
  try {
    const args = ["--ro-bind", "/", "/", "--unshare-pid", "true"];
    return (await new Deno.Command("bwrap", { args, stderr: "null" }).output()).success;
  } catch {
    return false;
  }
}

function options(workspace: string, more: Partial<SandboxOptions> = {}): SandboxOptions {
  return { settings: DEFAULT_SANDBOX_SETTINGS, workspace, env: {}, ...more };
}

const required = { ...DEFAULT_SANDBOX_SETTINGS, required: true };

Deno.test("a missing bwrap leaves bash unconfined with a notice to show once", async () => {
  await using dir = await tempDir();
  const resolved = await resolveSandbox(options(dir.path, { bwrap: "/nonexistent/bwrap" }));
  assert.deepEqual(resolved, {
    ok: true,
    notice: 'bwrap not found at "/nonexistent/bwrap": bash runs unconfined; install bubblewrap ' +
      "(apt-get install bubblewrap, or dnf install bubblewrap) to confine it",
  });
});

Deno.test("a required sandbox without bwrap is an error that says how to install it", async () => {
  await using dir = await tempDir();
  const resolved = await resolveSandbox(
    options(dir.path, { bwrap: "/nonexistent/bwrap", settings: required }),
  );
  assert.equal(resolved.ok, false);
  assert.match(!resolved.ok ? resolved.error.message : "", /apt-get install bubblewrap/);
  assert.match(!resolved.ok ? resolved.error.message : "", /dnf install bubblewrap/);
});

Deno.test("a bwrap that cannot build the sandbox counts as missing", async () => {
  await using dir = await tempDir();
  const resolved = await resolveSandbox(options(dir.path, { bwrap: "false" }));
  assert.equal(resolved.ok && resolved.sandbox, undefined);
  assert.match(
    resolved.ok ? resolved.notice ?? "" : "",
    /^bwrap cannot create a sandbox here \(exit code 1\): bash runs unconfined/,
  );
});

Deno.test("a disabled sandbox leaves bash unconfined without a notice", async () => {
  const settings = { ...DEFAULT_SANDBOX_SETTINGS, enabled: false };
  assert.deepEqual(await resolveSandbox(options("/nonexistent", { settings })), { ok: true });
  const both = await resolveSandbox(
    options("/nonexistent", { settings: { ...required, enabled: false } }),
  );
  assert.equal(both.ok, false);
});

Deno.test({
  name: "the sandbox makes existing dirs writable, the log read-only and hides existing secrets",
  ignore: !(await bwrapWorks()),
  async fn() {
    await using workspace = await tempDir();
    await using home = await tempDir();
    await using extra = await tempDir();
    await home.write({ ".ssh/id_test": "key", ".netrc": "machine x", "notes.txt": "" });
    const resolved = await resolveSandbox(options(workspace.path, {
      home: home.path,
      readOnly: [join(workspace.path, ".rein")],
      additionalDirectories: [extra.path, "~/missing", "~/.ssh/../"],
      env: { GOOGLE_APPLICATION_CREDENTIALS: workspace.path },
    }));
    assert.ok(resolved.ok && resolved.sandbox, JSON.stringify(resolved));
    const real = (path: string) => Deno.realPathSync(path);
    // The machine's own sockets and runtime directories are hidden too; the home's are checked.
    const inHome = resolved.config.hidden.filter((entry) => entry.path.startsWith(home.path));
    assert.deepEqual({ ...resolved.config, hidden: inHome }, {
      bwrap: "bwrap",
      workspace: workspace.path,
      writable: [real(workspace.path), real(extra.path), real(home.path)],
      // The workspace is in no repository: an empty `.git` is made and mounted read-only.
      gitMounts: [{ path: join(real(workspace.path), ".git"), access: "readOnly" }],
      tripwires: [],
      readOnly: [real(join(workspace.path, ".rein"))],
      hidden: [
        { path: join(home.path, ".ssh"), kind: "directory" },
        { path: join(home.path, ".netrc"), kind: "file" },
      ],
      network: true,
    });
    assert.ok((await Deno.stat(join(workspace.path, ".rein"))).isDirectory, "created");
    assert.deepEqual([...Deno.readDirSync(join(workspace.path, ".git"))], [], "an empty .git");
  },
});

Deno.test("a .git symlink is refused whatever the settings: a command could replace it", async () => {
  await using workspace = await tempDir();
  await using elsewhere = await tempDir();
  await Deno.mkdir(join(elsewhere.path, "repo.git"));
  await Deno.symlink(join(elsewhere.path, "repo.git"), join(workspace.path, ".git"));
  const resolved = await resolveSandbox(options(workspace.path, { bwrap: "/nonexistent/bwrap" }));
  assert.equal(resolved.ok, false);
  assert.match(
    !resolved.ok ? resolved.error.message : "",
    /^Cannot guard git's files in the sandbox: ".*\/\.git" is a symlink, which a command could /,
  );
});

/** Runs `script` with bash in `sandbox`; its output and error output together. */
async function inSandbox(sandbox: BashSandbox, script: string, home: string): Promise<string> {
  const [program, ...args] = sandbox.argv(["-c", script], []);
  const out = await new Deno.Command(program as string, {
    args,
    env: { HOME: home },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return decode(out.stdout) + decode(out.stderr);
}

Deno.test({
  name:
    "a confined sandbox (a teammate's) shows neither the home nor folders outside the workspace, but git's configuration, and git works in it and in its worktree",
  ignore: !(await bwrapWorks()),
  async fn() {
    await using workspace = await tempDir();
    await using home = await tempDir();
    await using outside = await tempDir();
    await home.write({ ".gitconfig": "[user]\n\tname = Person\n", "notes.txt": "home notes" });
    await home.write({ ".ssh/id_test": "key" });
    await outside.write({ "other.txt": "outside" });
    await workspace.write({ "inside.txt": "inside" });
    const git = (...args: string[]) =>
      new Deno.Command("git", {
        args: ["-c", "user.email=p@p", ...args],
        cwd: workspace.path,
        env: { HOME: home.path },
        stdout: "null",
        stderr: "null",
      }).output();
    await git("init", "-q");
    await git("add", "inside.txt");
    await git("commit", "-q", "-m", "one");
    await git("worktree", "add", "-q", "-b", "wt-a", join(workspace.path, "wt", "a"));
    const resolved = await resolveSandbox(options(workspace.path, {
      home: home.path,
      confined: true,
      readOnly: [join(workspace.path, ".rein")],
    }));
    assert.ok(resolved.ok && resolved.sandbox, JSON.stringify(resolved));
    // The home's credential is not there to hide; nothing of the home is shown but git's file.
    assert.ok(!resolved.config.hidden.some(({ path }) => path.startsWith(home.path)));
    const script = `cat ${home.path}/notes.txt; ls -A ${home.path}; ls ${home.path}/.ssh; ` +
      `cat ${outside.path}/other.txt; ls /root /var 2>&1 | head -2; touch /made; ` +
      `cat inside.txt; echo; echo x > new.txt && echo wrote; git config user.name; ` +
      `git status --short -- new.txt; rg -l inside inside.txt`;
    const out = await inSandbox(resolved.sandbox, script, home.path);
    assert.doesNotMatch(out, /home notes|outside\n|notes\.txt\n|id_test/);
    assert.match(out, /^\.gitconfig$/m);
    assert.match(out, /other\.txt: No such file or directory/);
    assert.match(out, /'\/root': No such file or directory/);
    assert.match(out, /'\/var': No such file or directory/);
    assert.match(out, /\/made': Read-only file system/);
    assert.match(out, /^inside\nwrote\nPerson\n\?\? new\.txt\ninside\.txt$/m);
    // In a worktree of the workspace, git reads the shared .git (the workspace is shown).
    const placed = resolved.sandbox.placed?.(join(workspace.path, "wt", "a"));
    assert.ok(placed !== undefined);
    const there = await inSandbox(
      placed,
      "git status --short; git log --format=%s; pwd",
      home.path,
    );
    assert.equal(there, `one\n${Deno.realPathSync(join(workspace.path, "wt", "a"))}\n`);
  },
});

Deno.test({
  name: "the lead's sandbox (not confined) still reads the rest of the machine",
  ignore: !(await bwrapWorks()),
  async fn() {
    await using workspace = await tempDir();
    await using home = await tempDir("rein_home_");
    await home.write({ "notes.txt": "home notes" });
    const resolved = await resolveSandbox(options(workspace.path, { home: home.path }));
    assert.ok(resolved.ok && resolved.sandbox, JSON.stringify(resolved));
    assert.equal(resolved.config.visible, undefined);
    // The host's root, read-only (/var is there).
    const out = await inSandbox(resolved.sandbox, "ls / | grep -c '^var$'", home.path);
    assert.equal(out, "1\n");
  },
});
