import assert from "node:assert/strict";
import { join } from "node:path";
import { tempDir } from "../../testing/tool_helpers.ts";
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
