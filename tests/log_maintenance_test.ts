import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { sequentialBash } from "../testing/scenarios.ts";
import { SessionLease } from "../cli/session_lease.ts";
import { childEnv, readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-api03-LOG-MAINTENANCE-0123456789";
const LAUNCHER = new URL("../cli/launch.sh", import.meta.url).pathname;

/** A workspace whose log holds two recorded sessions; the fake model server stays up. */
async function recordedWorkspace() {
  const fake = await startFakeAnthropic({ script: sequentialBash(1, () => "true") });
  const ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  for (const prompt of ["first", "second"]) {
    const run = await runCli(["agent", "-p", prompt, "--workspace", ws.path], { env });
    assert.equal(run.code, 0, run.stderr);
  }
  const log = `${ws.path}/.rein/events.jsonl`;
  return {
    ws,
    log,
    env,
    agent: (prompt: string) => runCli(["agent", "-p", prompt, "--workspace", ws.path], { env }),
    rein: (...args: string[]) => runCli([...args, "--workspace", ws.path]),
    async [Symbol.asyncDispose]() {
      await ws[Symbol.asyncDispose]();
      await fake[Symbol.asyncDispose]();
    },
  };
}

/** The log's lines with `inserted` put in after line `after`. */
async function insertLine(log: string, after: number, inserted: string): Promise<string[]> {
  const lines = (await Deno.readTextFile(log)).split("\n").slice(0, -1);
  await Deno.writeTextFile(
    log,
    [...lines.slice(0, after), inserted, ...lines.slice(after)].join("\n") + "\n",
  );
  return lines;
}

/** Files beside the log, other than the log and its leases. */
async function besideLog(log: string): Promise<string[]> {
  const dir = log.slice(0, log.lastIndexOf("/"));
  const names = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name);
  return names.filter((n) => n.startsWith("events.jsonl.")).sort();
}

Deno.test("a garbage line mid-log: the agent refuses and names the ways out; check lists it; salvage keeps the prefix and a new session works", async () => {
  await using w = await recordedWorkspace();
  const good = await insertLine(w.log, 5, "this is not an event");
  const damaged = await Deno.readTextFile(w.log);

  const refused = await w.agent("third");
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /line 6 of ".*events\.jsonl": unexpected token/);
  assert.match(refused.stderr, /rein log check ".*events\.jsonl"/);
  assert.match(
    refused.stderr,
    /rein log salvage ".*events\.jsonl" +keep the 5 event\(s\) before line 6/,
  );
  assert.match(refused.stderr, /--log PATH/);
  assert.equal(await Deno.readTextFile(w.log), damaged, "the refusal leaves the log alone");

  const check = await w.rein("log", "check");
  assert.equal(check.code, 1, check.stderr);
  assert.match(
    check.stdout,
    /^line 6: unexpected token '.', "this is not an event" is not valid JSON$/m,
  );
  assert.match(
    check.stdout,
    new RegExp(`${good.length + 1} lines, 1 problem, the first at line 6`),
  );

  const salvage = await w.rein("log", "salvage");
  assert.equal(salvage.code, 0, salvage.stderr);
  assert.equal(await Deno.readTextFile(w.log), good.slice(0, 5).join("\n") + "\n");
  const [backup, setAside, ...others] = await besideLog(w.log);
  assert.deepEqual(others, []);
  assert.match(backup!, /^events\.jsonl\.backup-/);
  assert.match(setAside!, /^events\.jsonl\.set-aside-.*\.jsonl$/);
  const dir = w.log.slice(0, w.log.lastIndexOf("/"));
  assert.equal(await Deno.readTextFile(`${dir}/${backup}`), damaged);
  assert.equal(
    await Deno.readTextFile(`${dir}/${setAside}`),
    ["this is not an event", ...good.slice(5)].join("\n") + "\n",
  );
  assert.match(salvage.stdout, /Kept 5 events \(lines 1–5\)/);
  assert.match(salvage.stdout, /line 6: not an event \(unexpected token/);
  const seventh = JSON.parse(good[5]!);
  assert.match(
    salvage.stdout,
    new RegExp(`line 7: seq 6 ${seventh.type} \\(session ${seventh.session}, lead\\)`),
  );
  assert.match(
    salvage.stdout,
    new RegExp(`Set aside ${good.length - 5} events and 1 line that is not an event`),
  );

  const again = await w.agent("third");
  assert.equal(again.code, 0, again.stderr);
  const lines = await readLogLines(w.log);
  assert.deepEqual(lines.map((l) => l.seq), lines.map((_, i) => i + 1));
  assert.equal((await w.rein("log", "check")).code, 0);
});

Deno.test("log check lists a payload the fold rejects and a seq gap, each with its line", async () => {
  await using w = await recordedWorkspace();
  const lines = (await Deno.readTextFile(w.log)).split("\n").slice(0, -1);
  const responded = lines.findIndex((l) => JSON.parse(l).type === "model.responded");
  const broken = JSON.parse(lines[responded]!);
  broken.data = {};
  lines[responded] = JSON.stringify(broken);
  lines.splice(responded + 2, 1);
  await Deno.writeTextFile(w.log, lines.join("\n") + "\n");

  const check = await w.rein("log", "check");
  assert.equal(check.code, 1);
  const problems = check.stdout.split("\n").filter((l) => l.startsWith("line "));
  assert.deepEqual(problems.map((p) => p.replace(/: .*/, "")), [
    `line ${responded + 1} (seq ${responded + 1}, model.responded)`,
    `line ${responded + 3} (seq ${responded + 4}, ${JSON.parse(lines[responded + 2]!).type})`,
  ]);
  assert.match(problems[0]!, /malformed model\.responded payload/);
  assert.match(problems[1]!, /expected seq \d+, found \d+ \(a gap\)/);

  const salvage = await w.rein("log", "salvage");
  assert.equal(salvage.code, 0, salvage.stderr);
  assert.equal((await readLogLines(w.log)).length, responded);
});

Deno.test("log salvage refuses while a session of the log runs or the log is locked, and for a newer rein's line", async () => {
  await using w = await recordedWorkspace();
  const session = (await readLogLines(w.log))[0]!.session;
  await insertLine(w.log, 3, "{broken");
  const before = await Deno.readTextFile(w.log);

  const lease = await SessionLease.acquire(w.log, session, "lead");
  const running = await w.rein("log", "salvage");
  lease.release();
  assert.equal(running.code, 1);
  assert.match(running.stderr, new RegExp(`session ${session} \\(pid ${Deno.pid}\\) is running`));

  {
    using file = await Deno.open(w.log, { read: true });
    await file.lock(true);
    const locked = await w.rein("log", "salvage");
    assert.equal(locked.code, 1);
    assert.match(locked.stderr, /another rein process is writing to it/);
  }
  assert.equal(await Deno.readTextFile(w.log), before);
  assert.deepEqual(await besideLog(w.log), []);

  const lines = before.split("\n").slice(0, -1);
  const newer = { ...JSON.parse(lines[2]!), v: 99, seq: 3 };
  lines.splice(2, 2, JSON.stringify(newer));
  await Deno.writeTextFile(w.log, lines.join("\n") + "\n");
  const refused = await w.rein("log", "salvage");
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /line 3: written by a newer rein .* Upgrade rein/);
  assert.deepEqual(await besideLog(w.log), []);
  const agent = await w.agent("x");
  assert.match(agent.stderr, /Upgrade rein to read this log/);
});

Deno.test("log stats counts events by type and agent, sessions and snapshots", async () => {
  await using w = await recordedWorkspace();
  const lines = await readLogLines(w.log);
  const stats = await w.rein("log", "stats");
  assert.equal(stats.code, 0, stats.stderr);
  assert.match(stats.stdout, new RegExp(`${lines.length} events in 2 sessions`));
  const responded = lines.filter((l) => l.type === "model.responded").length;
  assert.match(stats.stdout, new RegExp(`^  model\\.responded +${responded} `, "m"));
  assert.match(stats.stdout, new RegExp(`^  lead +${lines.length} `, "m"));
  assert.match(stats.stdout, /^problems +none/m);
  assert.match(stats.stdout, /^sessions +2 sessions, 0 resumed, 0 forks/m);
  assert.match(
    stats.stdout,
    /^snapshots +\d catalog snapshots?, newest first; 2 session snapshots$/m,
  );
  assert.match(
    stats.stdout,
    new RegExp(
      `^  seq ${lines.length} at byte \\d+ \\(100\\.0% of the log, 0\\.0 kB after it\\), 2 sessions, .*, valid: `,
      "m",
    ),
  );
  assert.match(
    stats.stdout,
    /^ {2}sessions: 2 valid \(2 up to the session's last event\) for 2 sessions, 0 stale/m,
  );
  const missing = await runCli(["log", "stats", `${w.ws.path}/nope.jsonl`]);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /No log at ".*nope\.jsonl"/);
});

Deno.test("log check, stats and salvage of a log outside the workspace run under the launcher", async () => {
  await using w = await recordedWorkspace();
  await using elsewhere = await tempWorkspace();
  const dir = join(elsewhere.path, "logs");
  const log = join(dir, "events.jsonl");
  await Deno.mkdir(join(dir, "snapshots"), { recursive: true });
  await Deno.copyFile(w.log, log);
  const snapshots = join(dir, "snapshots", "events.jsonl");
  await Deno.rename(join(w.ws.path, ".rein", "snapshots", "events.jsonl"), snapshots);
  const count = async (folder: string) =>
    (await Array.fromAsync(Deno.readDir(folder))).filter((entry) => entry.isFile).length;
  const taken = await count(snapshots) + await count(join(snapshots, "sessions"));
  const good = await insertLine(log, 5, "this is not an event");
  const ours = await Deno.readTextFile(w.log);
  const launch = async (...args: string[]) => {
    const out = await new Deno.Command("sh", {
      args: [LAUNCHER, ...args],
      // Not the temp directory the other workspace is in, which the agent may write.
      env: childEnv({ REIN_DENO: Deno.execPath(), TMPDIR: w.ws.path }),
      clearEnv: true,
      cwd: w.ws.path,
    }).output();
    const decoder = new TextDecoder();
    const result = {
      code: out.code,
      stdout: decoder.decode(out.stdout),
      stderr: decoder.decode(out.stderr),
    };
    assert.doesNotMatch(result.stderr, /NotCapable|Requires .* access/, args.join(" "));
    return result;
  };

  const check = await launch("log", "check", log);
  assert.equal(check.code, 1, check.stderr);
  assert.match(check.stdout, /^line 6: unexpected token/m);
  const stats = await launch("log", "stats", "--log", log);
  assert.equal(stats.code, 0, stats.stderr);
  assert.match(stats.stdout, /^snapshots +\d+/m);
  const salvage = await launch("log", "salvage", log);
  assert.equal(salvage.code, 0, salvage.stderr);
  assert.equal(await Deno.readTextFile(log), good.slice(0, 5).join("\n") + "\n");
  assert.equal((await besideLog(log)).length, 2, "the backup and the set-aside lines");
  // The snapshots were of the whole log: none fits the kept events.
  assert.match(
    salvage.stdout,
    new RegExp(`Removed ${taken} snapshots that no longer fit the log`),
  );
  assert.equal(await Deno.readTextFile(w.log), ours, "the workspace's own log is untouched");
});
