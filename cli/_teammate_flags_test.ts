import assert from "node:assert/strict";
import { teammateFlags } from "./_teammate_flags.ts";

const launcher = [
  "--allow-read=/w,/w-real,/tmp,/home/me/.claude",
  "--allow-write=/w,/w-real,/logs,/tmp,/home/me/.local/state/rein,/home/me/.claude.json," +
  "/home/me/.claude.json.rein.tmp",
  "--allow-net=api.anthropic.com",
  "--allow-env",
  "--allow-run=bash,bwrap,setpriv,setsid,rg,git",
  "--no-prompt",
];
const realPath = (path: string) =>
  path === "/w" ? "/w-real" : path === "/w/pkg" ? "/w-real/pkg" : undefined;
const entries = (path: string) =>
  path === "/w/.claude/worktrees" ? ["a", "b"] : path === "/w/.worktrees" ? ["c"] : [];

Deno.test("teammateFlags: a teammate in a folder writes that folder, the log's, temp and rein's state only", () => {
  const flags = teammateFlags(launcher, { workspace: "/w", cwd: "/w/pkg", realPath, entries });
  assert.deepEqual(flags, [
    "--allow-read=/w,/w-real,/tmp,/home/me/.claude",
    "--allow-write=/w/pkg,/w-real/pkg,/logs,/tmp,/home/me/.local/state/rein",
    "--allow-net=api.anthropic.com",
    "--allow-env",
    "--allow-run=bash,bwrap,setsid,rg,git",
    "--no-prompt",
  ]);
});

Deno.test("teammateFlags: a teammate in the workspace writes the workspace; unrestricted run stays", () => {
  const unrestricted = launcher.map((flag) =>
    flag.startsWith("--allow-run") ? "--allow-run" : flag
  );
  const flags = teammateFlags(unrestricted, { workspace: "/w", cwd: "/w", realPath, entries });
  assert.equal(flags[1], "--allow-write=/w,/w-real,/logs,/tmp,/home/me/.local/state/rein");
  assert.equal(flags[4], "--allow-run");
});

Deno.test("teammateFlags: a teammate in a worktree reads and writes it and no other worktree", () => {
  const real = (path: string) => path.startsWith("/w") ? path.replace("/w", "/w-real") : undefined;
  const flags = teammateFlags(launcher, {
    workspace: "/w",
    cwd: "/w/.claude/worktrees/a",
    realPath: real,
    entries,
  });
  const others = "/w/.claude/worktrees/b,/w-real/.claude/worktrees/b,/w/.worktrees/c," +
    "/w-real/.worktrees/c";
  assert.deepEqual(flags, [
    "--allow-read=/w,/w-real,/tmp,/home/me/.claude",
    "--allow-write=/w/.claude/worktrees/a,/w-real/.claude/worktrees/a,/logs,/tmp," +
    "/home/me/.local/state/rein",
    "--allow-net=api.anthropic.com",
    "--allow-env",
    "--allow-run=bash,bwrap,setsid,rg,git",
    "--no-prompt",
    `--deny-read=${others}`,
    `--deny-write=${others}`,
  ]);
  // Alone in its worktree folder, it is denied nothing.
  const alone = teammateFlags(launcher, {
    workspace: "/w",
    cwd: "/w/.claude/worktrees/a",
    realPath: real,
    entries: (path) => path === "/w/.claude/worktrees" ? ["a"] : [],
  });
  assert.equal(alone.some((flag) => flag.startsWith("--deny-")), false);
});

Deno.test("teammateFlags: Deno lets a teammate read its worktree under the flags, whatever else is allowed", async () => {
  const root = await Deno.makeTempDir({ prefix: "rein-flags-" });
  try {
    for (const name of ["a", "b"]) {
      await Deno.mkdir(`${root}/w/.claude/worktrees/${name}`, { recursive: true });
      await Deno.writeTextFile(`${root}/w/.claude/worktrees/${name}/f.txt`, name);
    }
    // Allowed paths like these made Deno refuse the teammate its own worktree when it was
    // allowed back inside a denied folder.
    const flags = teammateFlags([
      `--allow-read=${root}/w,${root},/root/.local/state/rein,/root/.cache/rein/plugins`,
      `--allow-write=${root}/w`,
    ], {
      workspace: `${root}/w`,
      cwd: `${root}/w/.claude/worktrees/a`,
      realPath: (path) => path,
      entries: (path) => {
        try {
          return [...Deno.readDirSync(path)].map((entry) => entry.name);
        } catch {
          return [];
        }
      },
    });
    const script = `${root}/probe.ts`;
    await Deno.writeTextFile(
      script,
      "const read = (p: string) => Deno.readTextFile(p).then((t) => t, (e) => e.name);\n" +
        `console.log(await read("${root}/w/.claude/worktrees/a/f.txt"), ` +
        `await read("${root}/w/.claude/worktrees/b/f.txt"));`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", `--allow-read=${script}`, ...flags, script],
    }).output();
    assert.equal(new TextDecoder().decode(out.stdout).trim(), "a NotCapable");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
