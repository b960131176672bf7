/**
 * `rein view` under the launcher: it reads (the log and its snapshots) and listens on 127.0.0.1
 * only, writing nothing; with `--open` it may start the browser. The shell launcher computes the
 * same flags as the launch plan, and a `rein view` started through it serves its page.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { planLaunch } from "../cli/_launch_plan.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const LAUNCHER = join(ROOT, "cli", "launch.sh");
const READ_ENV = "--allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME";

function realPath(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

async function shellFlags(argv: string[], cwd: string): Promise<string[]> {
  const out = await new Deno.Command("sh", {
    args: [LAUNCHER, "--show-permissions", ...argv],
    env: { PATH: Deno.env.get("PATH") ?? "", REIN_DENO: Deno.execPath(), HOME: cwd },
    clearEnv: true,
    cwd,
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trimEnd().split("\n");
}

Deno.test("rein view reads and listens on 127.0.0.1 only, and runs the browser only with --open, in both launchers", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "rein-view-launch-" });
  try {
    const cases: [string[], string[]][] = [
      [["view"], ["--allow-read", "--allow-net=127.0.0.1", READ_ENV, "--no-prompt"]],
      [["view", "logs/x.jsonl", "--port", "8080"], [
        "--allow-read",
        "--allow-net=127.0.0.1",
        READ_ENV,
        "--no-prompt",
      ]],
      [["view", "--workspace", "w", "--open"], [
        "--allow-read",
        "--allow-net=127.0.0.1",
        "--allow-run=xdg-open,open",
        READ_ENV,
        "--no-prompt",
      ]],
    ];
    for (const [argv, expected] of cases) {
      const plan = planLaunch({ argv, env: { HOME: cwd }, cwd, root: ROOT, realPath });
      assert.deepEqual(plan.permissions, expected, argv.join(" "));
      assert.deepEqual(await shellFlags(argv, cwd), expected, argv.join(" "));
    }
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("rein view started through the shell launcher prints its address and serves the page there", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "rein-view-launch-" });
  const log = join(cwd, "events.jsonl");
  await Deno.copyFile(new URL("./golden/six_tools.jsonl", import.meta.url), log);
  const child = new Deno.Command("sh", {
    args: [LAUNCHER, "view", log],
    // The person's HOME: Deno's cache is under it.
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      REIN_DENO: Deno.execPath(),
      HOME: Deno.env.get("HOME") ?? cwd,
    },
    clearEnv: true,
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!/\?t=[0-9a-f]{32}\n/.test(text)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`rein view ended: ${text}`);
      text += value;
    }
    const url = text.match(/http:\/\/127\.0\.0\.1:\d+\/\?t=[0-9a-f]{32}/)![0];
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Use every tool on notes\/golden\.txt/);
    await reader.cancel();
  } finally {
    child.kill("SIGTERM");
    const status = await child.status;
    assert.equal(status.code, 0);
    await child.stderr.cancel();
    await Deno.remove(cwd, { recursive: true });
  }
});
