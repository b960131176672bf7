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

Deno.test("teammateFlags: a teammate in a folder writes that folder, the log's, temp and rein's state only", () => {
  const flags = teammateFlags(launcher, { workspace: "/w", cwd: "/w/pkg", realPath });
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
  const flags = teammateFlags(unrestricted, { workspace: "/w", cwd: "/w", realPath });
  assert.equal(flags[1], "--allow-write=/w,/w-real,/logs,/tmp,/home/me/.local/state/rein");
  assert.equal(flags[4], "--allow-run");
});

Deno.test("teammateFlags: a teammate in a worktree reads and writes it and no other worktree", () => {
  const real = (path: string) => path.startsWith("/w") ? path.replace("/w", "/w-real") : undefined;
  const flags = teammateFlags(launcher, {
    workspace: "/w",
    cwd: "/w/.claude/worktrees/a",
    realPath: real,
  });
  assert.deepEqual(flags, [
    "--allow-read=/w,/w-real,/tmp,/home/me/.claude,/w/.claude/worktrees/a," +
    "/w-real/.claude/worktrees/a",
    "--allow-write=/w/.claude/worktrees/a,/w-real/.claude/worktrees/a,/logs,/tmp," +
    "/home/me/.local/state/rein",
    "--allow-net=api.anthropic.com",
    "--allow-env",
    "--allow-run=bash,bwrap,setsid,rg,git",
    "--no-prompt",
    "--deny-read=/w/.claude/worktrees,/w-real/.claude/worktrees,/w/.worktrees,/w-real/.worktrees",
    "--deny-write=/w/.claude/worktrees,/w-real/.claude/worktrees,/w/.worktrees,/w-real/.worktrees",
  ]);
});
