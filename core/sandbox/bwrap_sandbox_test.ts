import assert from "node:assert/strict";
import { join } from "node:path";
import { bwrapSandbox } from "./bwrap_sandbox.ts";
import type { SandboxConfig } from "./bwrap_args.ts";

const HAS_BWRAP = await new Deno.Command("bwrap", { args: ["--version"], stdout: "null" })
  .output().then((out) => out.success, () => false);

function config(workspace: string): SandboxConfig {
  return {
    bwrap: "bwrap",
    workspace,
    writable: [workspace],
    gitMounts: [],
    tripwires: [],
    readOnly: [],
    hidden: [],
    network: false,
  };
}

Deno.test({
  name: "a sandbox placed in a folder lets commands change that folder only, starting there",
  ignore: !HAS_BWRAP,
  fn: async () => {
    const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-placed-" }));
    try {
      await Deno.mkdir(join(workspace, "pkg"));
      const sandbox = bwrapSandbox(config(workspace)).placed?.(join(workspace, "pkg"));
      assert.ok(sandbox);
      const [program, ...args] = sandbox.argv(
        ["-c", "pwd; touch inside; touch ../outside 2>/dev/null; true"],
        [],
      );
      const out = await new Deno.Command(program as string, { args }).output();
      assert.equal(new TextDecoder().decode(out.stdout), `${join(workspace, "pkg")}\n`);
      await Deno.stat(join(workspace, "pkg", "inside"));
      // The workspace's own root is read-only to it (or, under /tmp, a private copy).
      await assert.rejects(Deno.stat(join(workspace, "outside")));
    } finally {
      await Deno.remove(workspace, { recursive: true });
    }
  },
});

Deno.test("a sandbox placed in a folder that links out of the workspace builds no command", async () => {
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-placed-" }));
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-outside-" }));
  try {
    await Deno.symlink(outside, join(workspace, "pkg"));
    const sandbox = bwrapSandbox(config(workspace)).placed?.(join(workspace, "pkg"));
    assert.throws(() => sandbox?.argv(["-c", "true"], []), /leads out of the workspace/);
    // Inside the workspace, a folder is bound by its real path, not by the link's.
    await Deno.mkdir(join(workspace, "real"));
    await Deno.symlink(join(workspace, "real"), join(workspace, "alias"));
    const argv = bwrapSandbox(config(workspace)).placed?.(join(workspace, "alias"))
      ?.argv(["-c", "true"], []) ?? [];
    assert.ok(
      argv.join(" ").includes(`--bind ${join(workspace, "real")} ${join(workspace, "real")}`),
    );
    assert.ok(!argv.includes(join(workspace, "alias")));
  } finally {
    await Deno.remove(workspace, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
