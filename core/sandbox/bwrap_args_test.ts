import assert from "node:assert/strict";
import { bwrapArgs, type SandboxConfig } from "./bwrap_args.ts";
import { bwrapSandbox } from "./bwrap_sandbox.ts";

const config: SandboxConfig = {
  bwrap: "/usr/bin/bwrap",
  workspace: "/work/project",
  writable: ["/work/project", "/data/cache"],
  gitMounts: [
    { path: "/work/project/.git", access: "pinned" },
    { path: "/work/project/.git/config", access: "readOnly" },
  ],
  tripwires: ["/work/project/.git/commondir"],
  readOnly: ["/work/project/.rein"],
  hidden: [
    { path: "/home/u/.ssh", kind: "directory" },
    { path: "/home/u/.netrc", kind: "file" },
  ],
  network: true,
};

/** The arguments as "flag operands…" lines, for readable comparisons. */
function lines(args: string[]): string[] {
  const out: string[] = [];
  for (const arg of args) {
    if (arg.startsWith("--") || out.length === 0) out.push(arg);
    else out[out.length - 1] += ` ${arg}`;
  }
  return out;
}

Deno.test("bwrapArgs mounts the root read-only, then writable dirs, git's mounts, read-only dirs, masks", () => {
  assert.deepEqual(lines(bwrapArgs(config)), [
    "--ro-bind / /",
    "--dev /dev",
    "--proc /proc",
    "--tmpfs /tmp",
    "--bind /work/project /work/project",
    "--bind /data/cache /data/cache",
    "--bind /work/project/.git /work/project/.git",
    "--ro-bind /work/project/.git/config /work/project/.git/config",
    "--ro-bind /work/project/.rein /work/project/.rein",
    "--tmpfs /home/u/.ssh",
    "--ro-bind /dev/null /home/u/.netrc",
    "--unshare-pid",
    "--unshare-ipc",
    "--die-with-parent",
    "--new-session",
    "--cap-drop ALL",
    "--chdir /work/project",
  ]);
});

Deno.test("bwrapArgs cuts the network when the settings turn it off", () => {
  const args = bwrapArgs({ ...config, network: false });
  assert.ok(args.includes("--unshare-net"));
  assert.ok(!bwrapArgs(config).includes("--unshare-net"));
});

Deno.test("bwrapArgs binds readable files read-only at their own paths after the masks", () => {
  const args = lines(bwrapArgs(config, ["/tmp/rein-bash-1.sh"]));
  const script = args.indexOf("--ro-bind /tmp/rein-bash-1.sh /tmp/rein-bash-1.sh");
  assert.ok(script > args.indexOf("--tmpfs /tmp"), "bound after the private /tmp");
  assert.ok(script > args.indexOf("--ro-bind /dev/null /home/u/.netrc"), "bound after the masks");
});

Deno.test("the bwrap sandbox runs bash after bwrap's options and --", () => {
  const argv = bwrapSandbox(config).argv(["-c", "echo hi"], []);
  assert.deepEqual(argv, ["/usr/bin/bwrap", ...bwrapArgs(config), "--", "bash", "-c", "echo hi"]);
});

Deno.test("the bwrap sandbox tells the model what it may change and whether it has a network", () => {
  assert.equal(
    bwrapSandbox(config).description,
    "Commands run in a sandbox: they can change files only in the workspace and `/data/cache` " +
      "(except rein's log directory and git's configuration and hooks) and in /tmp, which is private to each call and empty at its " +
      "start, so keep files later calls need in the workspace; the rest of the machine is " +
      "read-only, credentials such as ~/.ssh are hidden, secret environment variables are unset.",
  );
  const offline = bwrapSandbox({ ...config, writable: ["/work/project"], network: false });
  assert.match(offline.description, /only in the workspace \(except/);
  assert.match(offline.description, /unset, and there is no network\.$/);
});

Deno.test("bwrapArgs with visible paths shows only them over the private /tmp, links as links, and makes the root read-only last", () => {
  const args = lines(bwrapArgs({
    ...config,
    visible: [{ path: "/usr" }, { path: "/bin", link: "/usr/bin" }, { path: "/work/project" }],
  }, ["/tmp/rein-bash-1.sh"]));
  assert.deepEqual(args.slice(0, 6), [
    "--dev /dev",
    "--proc /proc",
    "--tmpfs /tmp",
    "--ro-bind /usr /usr",
    "--symlink /usr/bin /bin",
    "--ro-bind /work/project /work/project",
  ]);
  assert.ok(!args.includes("--ro-bind / /"));
  const remount = args.indexOf("--remount-ro /");
  assert.equal(remount, args.indexOf("--ro-bind /tmp/rein-bash-1.sh /tmp/rein-bash-1.sh") + 1);
  assert.equal(args[remount + 1], "--unshare-pid");
  assert.ok(!lines(bwrapArgs(config)).includes("--remount-ro /"));
});
