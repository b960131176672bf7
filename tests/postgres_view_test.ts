/**
 * `rein view` on a PostgreSQL log (REIN_STORE or --store): started through the shell launcher
 * with the network to the database's host only, it serves the database's sessions and streams
 * what is appended to them live; the URL's password is in no page, no printed address and no
 * argv.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "./_cli.ts";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { postgresMissing, startTestPostgres } from "../testing/postgres_server.ts";
import { planLaunch } from "../cli/_launch_plan.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const LAUNCHER = join(ROOT, "cli", "launch.sh");
const PASSWORD = "pw-v13w-s3cret";

const missing = postgresMissing();
if (missing !== undefined) console.warn(missing);

Deno.test("rein view given a store reaches the database's host and 127.0.0.1 only, in both launchers", async () => {
  const store = `postgres://rein:${PASSWORD}@db.example:6543/team?log=proj`;
  for (
    const [argv, env] of [[["view"], { REIN_STORE: store }], [
      ["view", "--store", store],
      {},
    ]] as const
  ) {
    const plan = planLaunch({
      argv: [...argv],
      env: { HOME: "/home/u", ...env },
      cwd: "/work/ws",
      root: ROOT,
      realPath: () => undefined,
    }).permissions;
    const nets = plan.filter((flag) => flag.startsWith("--allow-net"));
    assert.deepEqual(
      nets,
      ["--allow-net=127.0.0.1", "--allow-net=db.example:6543"],
      plan.join(" "),
    );
    assert.ok(!plan.some((flag) => flag.startsWith("--allow-run")), "no browser without --open");
    const out = await new Deno.Command("sh", {
      args: [LAUNCHER, "--show-permissions", ...argv],
      env: { PATH: Deno.env.get("PATH") ?? "", REIN_DENO: Deno.execPath(), HOME: "/tmp", ...env },
      clearEnv: true,
      cwd: "/tmp",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const shell = new TextDecoder().decode(out.stdout).trimEnd().split("\n");
    assert.deepEqual(shell.filter((flag) => flag.startsWith("--allow-net")), nets);
  }
});

Deno.test({
  name:
    "rein view on a PostgreSQL log serves its sessions and streams its appends live, the URL's password in no page, address or argv",
  ignore: missing !== undefined,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using server = await startTestPostgres();
    const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-pg-view-" }));
    await using fake = await startFakeAnthropic({
      script: (request) => {
        const last = JSON.stringify(request.body?.messages?.at(-1) ?? "");
        if (last.includes("toolu_write")) return message("Wrote it.");
        if (last.includes("second")) return message("Second answer.");
        return message([toolUse("toolu_write", "write_file", { path: "v.txt", content: "v" })]);
      },
    });
    // Trust authentication ignores the password: a made-up one shows where it would go.
    const store = server.url("viewed").replace("://postgres@", `://postgres:${PASSWORD}@`);
    const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test", REIN_STORE: store };
    const args = ["--workspace", workspace, "--permission-mode", "acceptEdits"];
    const first = await runCli(["-p", "first", ...args], { env });
    assert.equal(first.code, 0, first.stderr);
    const child = new Deno.Command("sh", {
      args: [LAUNCHER, "view"],
      env: {
        PATH: Deno.env.get("PATH") ?? "",
        REIN_DENO: Deno.execPath(),
        HOME: Deno.env.get("HOME") ?? workspace,
        REIN_STORE: store,
      },
      clearEnv: true,
      cwd: workspace,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const stderr = child.stderr.pipeThrough(new TextDecoderStream());
    const errors: string[] = [];
    const draining = (async () => {
      for await (const chunk of stderr) errors.push(chunk);
    })();
    try {
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let printed = "";
      while (!/\n\(Ctrl-C to stop\)/.test(printed)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`rein view ended: ${printed}${errors.join("")}`);
        printed += value;
      }
      reader.releaseLock();
      assert.doesNotMatch(printed, new RegExp(PASSWORD), "the address printed");
      assert.match(printed, /rein view of postgres:\/\/postgres:\*\*\*@127\.0\.0\.1/);
      const address = /(http:\/\/127\.0\.0\.1:\d+\/\?t=[0-9a-f]+)/.exec(printed)![1]!;
      const token = new URL(address).searchParams.get("t")!;
      // The launcher's process and the one it started (rein view itself).
      const argvs = await Promise.all(
        [child.pid, ...await childrenOf(child.pid)].map((pid) =>
          Deno.readTextFile(`/proc/${pid}/cmdline`).then((t) => t.replaceAll("\0", " "))
        ),
      );
      assert.ok(argvs.length >= 2, argvs.join("\n"));
      for (const argv of argvs) assert.doesNotMatch(argv, new RegExp(PASSWORD), argv);
      const view = argvs.find((argv) => argv.includes("main.ts view")) ?? "";
      assert.match(view, new RegExp(`--allow-net=127\\.0\\.0\\.1:${server.port}`), view);

      const list = await (await fetch(address)).text();
      assert.doesNotMatch(list, new RegExp(PASSWORD));
      const id = /\/session\/([0-9a-f-]{36})/.exec(list)?.[1];
      assert.ok(id !== undefined, list);
      assert.equal((await fetch(`${new URL(address).origin}/?t=wrong`)).status, 403);
      const page = await fetch(`${new URL(address).origin}/session/${id}?t=${token}`);
      assert.equal(page.status, 200);
      const pageText = await page.text();
      assert.doesNotMatch(pageText, new RegExp(PASSWORD));
      assert.match(pageText, /first/);
      const state = await (await fetch(
        `${new URL(address).origin}/api/session/${id}/state?t=${token}`,
      )).text();
      assert.match(state, /"at":\d+,"status":"idle"/);
      assert.match(state, /"rounds":2/);

      // The live stream: what a second run appends to the database arrives as rows.
      const exported = await runCli(["log", "export"], { env });
      const before = exported.stdout.trimEnd().split("\n").length;
      const live = await fetch(
        `${new URL(address).origin}/api/session/${id}/live?from=${before + 1}&t=${token}`,
      );
      const stream = live.body!.pipeThrough(new TextDecoderStream()).getReader();
      const first = await stream.read();
      assert.match(first.value ?? "", /event: hello/);
      const second = await runCli(["-p", "second", "--continue", ...args], { env });
      assert.equal(second.code, 0, second.stderr);
      let received = "";
      while (!/Second answer\./.test(received)) {
        const { value, done } = await stream.read();
        if (done) throw new Error(`The live stream ended: ${received}`);
        received += value;
      }
      assert.match(received, /event: item/);
      const seqs = [...received.matchAll(/"seq":(\d+)/g)].map((m) => Number(m[1]));
      assert.ok(seqs.length > 0 && seqs.every((seq) => seq > before), seqs.join(" "));
      assert.doesNotMatch(received, new RegExp(PASSWORD));
      await stream.cancel();
    } finally {
      child.kill("SIGTERM");
      await child.status;
      await draining;
      await Deno.remove(workspace, { recursive: true });
    }
    assert.doesNotMatch(errors.join(""), new RegExp(PASSWORD), "rein view's notices");
  },
});

/** The pids of the processes whose parent is `pid`. */
async function childrenOf(pid: number): Promise<number[]> {
  const found: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`).catch(() => "");
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (parent === pid) found.push(Number(entry.name));
  }
  return found;
}
