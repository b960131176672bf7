import assert from "node:assert/strict";
import { killGroup } from "./kill_group.ts";
import { isUnreapedSessionChild, spawnInOwnSession } from "./own_session_command.ts";

/** The pid, session and process group of `pid`, from /proc (fields 1, 5 and 6). */
async function idsOf(pid: number): Promise<{ ppid: number; pgrp: number; session: number }> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  const [, ppid, pgrp, session] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { ppid: Number(ppid), pgrp: Number(pgrp), session: Number(session) };
}

Deno.test("spawnInOwnSession: the child is rein's own child, leading its session and group", async () => {
  const child = spawnInOwnSession("bash", {
    args: ["-c", 'echo "$$"; cat >/dev/null'],
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  });
  const reader = child.stdout.getReader();
  const { value } = await reader.read();
  const shellPid = Number(new TextDecoder().decode(value).trim());
  // setsid execs bash in place: the pid rein holds is bash's, and it leads both.
  assert.equal(shellPid, child.pid);
  assert.deepEqual(await idsOf(child.pid), { ppid: Deno.pid, pgrp: child.pid, session: child.pid });
  assert.notEqual((await idsOf(Deno.pid)).session, child.pid);
  assert.equal(isUnreapedSessionChild(child.pid), true);
  await child.stdin.close();
  reader.releaseLock();
  await child.stdout.cancel();
  assert.equal((await child.status).code, 0);
  assert.equal(isUnreapedSessionChild(child.pid), false);
});

Deno.test("spawnInOwnSession: a kill right after the spawn stops the command and what it starts", async () => {
  const marker = `rein-own-session-${crypto.randomUUID()}`;
  for (let i = 0; i < 5; i++) {
    const child = spawnInOwnSession("bash", {
      args: ["-c", `sleep 30 & sleep 31; : ${marker}`],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    });
    // No wait: the child may not have called setsid() yet.
    assert.equal(await killGroup(child.pid), true);
    assert.equal((await child.status).signal, "SIGKILL");
  }
  const { stdout } = await new Deno.Command("pgrep", { args: ["-f", marker] }).output();
  assert.equal(new TextDecoder().decode(stdout).trim(), "", "no process of the command is left");
});

Deno.test("killGroup leaves a pid alone that is not a live child of its own session", async () => {
  // A child in rein's own group: no group of its own, and not started by spawnInOwnSession.
  const child = new Deno.Command("sleep", { args: ["30"], stdin: "null" }).spawn();
  try {
    assert.equal(await killGroup(child.pid), false);
    assert.equal((await idsOf(child.pid)).ppid, Deno.pid, "still running");
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
});

Deno.test("spawnInOwnSession falls back to detached where setsid may not run", async () => {
  const script = `
    import { spawnInOwnSession } from ${
    JSON.stringify(new URL("./own_session_command.ts", import.meta.url).href)
  };
    const child = spawnInOwnSession("bash", { args: ["-c", "cut -d ' ' -f 6 /proc/$$/stat"], stdout: "piped" });
    const sid = Number(new TextDecoder().decode((await child.output()).stdout).trim());
    console.log(sid === child.pid ? "own session" : "shared session");
  `;
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-config", "--allow-run=bash", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  assert.equal(new TextDecoder().decode(stdout).trim(), "own session");
});
