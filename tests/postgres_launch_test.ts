/**
 * The launcher grants the network to a PostgreSQL store's host (and the driver's variables) to
 * the log commands given one, and to nothing else.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { planLaunch } from "../cli/_launch_plan.ts";

const ROOT = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const LAUNCHER = join(ROOT, "cli", "launch.sh");
const STORE = "postgres://rein:secret@db.example:6543/team?log=proj";

function plan(argv: string[], env: Record<string, string> = {}): string[] {
  return planLaunch({
    argv,
    env: { HOME: "/home/u", ...env },
    cwd: "/work/ws",
    root: ROOT,
    realPath: () => undefined,
  }).permissions;
}

async function shellFlags(argv: string[], env: Record<string, string> = {}): Promise<string[]> {
  const out = await new Deno.Command("sh", {
    args: [LAUNCHER, "--show-permissions", ...argv],
    env: { PATH: Deno.env.get("PATH") ?? "", REIN_DENO: Deno.execPath(), HOME: "/tmp", ...env },
    clearEnv: true,
    cwd: "/tmp",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trimEnd().split("\n");
}

Deno.test("a log command given --store or REIN_STORE reaches the database's host only", async () => {
  for (
    const [argv, env] of [
      [["replay", "--store", STORE], {}],
      [["state", `--store=${STORE}`], {}],
      [["log", "export"], { REIN_STORE: STORE }],
    ] as const
  ) {
    const planned = plan([...argv], env);
    assert.ok(planned.includes("--allow-net=db.example:6543"), planned.join(" "));
    assert.ok(planned.some((f) => f.startsWith("--allow-env=") && f.includes("PGPASSWORD")));
    assert.ok(planned.includes("--allow-write=/tmp"), "the temporary copy replay reads");
    assert.deepEqual(await shellFlags([...argv], env), planned, "the shell launcher agrees");
  }
});

Deno.test("without a store the launcher grants no database host, to rein view neither", async () => {
  const plain = plan(["replay"]);
  assert.ok(!plain.some((f) => f.startsWith("--allow-net")), plain.join(" "));
  assert.ok(!plain.some((f) => f.includes("PGPASSWORD")));
  assert.deepEqual(await shellFlags(["replay"]), plain);
  const agent = plan(["-p", "hi"], { ANTHROPIC_BASE_URL: "http://127.0.0.1:9" });
  assert.ok(!agent.some((f) => f.includes("db.example")), agent.join(" "));
  // rein view with a store: tests/postgres_view_test.ts.
  const view = plan(["view"]);
  assert.ok(
    !view.some((f) => f.includes("db.example") || f.includes("PGPASSWORD")),
    view.join(" "),
  );
  assert.deepEqual(await shellFlags(["view"]), view);
});

Deno.test("the agent on a PostgreSQL store reaches the model's host and the database's", async () => {
  const env = { ANTHROPIC_BASE_URL: "http://127.0.0.1:9" };
  for (
    const [argv, extra] of [
      [["-p", "hi", "--store", STORE], {}],
      [["-p", "hi"], { REIN_STORE: STORE }],
    ] as const
  ) {
    const planned = plan([...argv], { ...env, ...extra });
    const net = planned.find((f) => f.startsWith("--allow-net="));
    assert.equal(net, "--allow-net=127.0.0.1:9,db.example:6543");
    const shell = await shellFlags([...argv], { ...env, ...extra });
    assert.ok(shell.includes(net), `the shell launcher grants it too: ${shell.join(" ")}`);
  }
});
