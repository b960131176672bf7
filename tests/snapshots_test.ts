import assert from "node:assert/strict";
import { join } from "node:path";
import { startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { echo, lastUserText } from "../testing/scenarios.ts";
import fc from "fast-check";
import { buildSnapshot, snapshotCoverage, snapshotDir } from "../core/snapshots/mod.ts";
import {
  catalogSnapshotPath,
  signedHeader,
  type SnapshotHeader,
} from "../core/snapshots/snapshot_files.ts";
import { processMachineKey } from "../core/effects/machine_key.ts";
import { randomLog } from "../testing/random_log.ts";
import { foldEvents } from "../core/state/state.ts";
import { reinCatalogProjections, reinProjections } from "../core/harness.ts";
import { sha256Hex } from "../events/start_point.ts";
import { openJsonlStore } from "../events/jsonl_store.ts";
import { fixedClock, tempDir } from "../testing/events.ts";
import { generateLog } from "../testing/generate_log.ts";
import type { CommandIo } from "../cli/io.ts";
import { stateCommand } from "../cli/state_command.ts";
import { sessionsCommand } from "../cli/log_commands.ts";
import { runCli, tempWorkspace } from "./_cli.ts";

/** Slices session snapshots hold, as a live harness takes them, and `state` folds. */
const PROJECTIONS = reinProjections();
const CATALOG = reinCatalogProjections();

const KEY = "sk-ant-api03-KNOWN-SECRET-abcdef0123456789";

Deno.test("a session resumes alike from its snapshot, from a spoiled one and from the log alone", async () => {
  await using fake = await startFakeAnthropic({ script: echo() });
  await using ws = await tempWorkspace();
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY };
  const log = join(ws.path, ".rein", "events.jsonl");
  const run = async (args: string[]) => {
    const result = await runCli(["agent", ...args, "--workspace", ws.path], { env });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stderr, "", "no notice about snapshots");
    return result;
  };
  const first = await run(["-p", "first", "--output-format", "json"]);
  const id = JSON.parse(first.stdout).session_id as string;
  await run(["-p", "another session"]);
  const sessionFile = join(snapshotDir(log), "sessions", `${id}.json`);
  assert.ok(await Deno.stat(sessionFile), "closing a session snapshots it");

  await run(["--resume", id, "-p", "second"]);
  const fromSnapshot = fake.requests.at(-1)?.body;
  assert.equal(fromSnapshot?.messages.length, 3);
  assert.equal(lastUserText(fromSnapshot), "second");

  const text = await Deno.readTextFile(sessionFile);
  await Deno.writeTextFile(sessionFile, text.replace('"first"', '"forged"'));
  await run(["--resume", id, "-p", "third"]);
  const spoiled = fake.requests.at(-1)?.body;
  assert.deepEqual(plain(spoiled?.messages.slice(0, 3)), plain(fromSnapshot?.messages));
  assert.equal(JSON.stringify(spoiled).includes("forged"), false, "a spoiled snapshot is ignored");

  await Deno.remove(snapshotDir(log), { recursive: true });
  await run(["--continue", "-p", "fourth"]);
  const fromLog = fake.requests.at(-1)?.body;
  assert.deepEqual(plain(fromLog?.messages.slice(0, 5)), plain(spoiled?.messages));
  assert.equal(fromLog?.messages.length, 7);

  const lines = (await Deno.readTextFile(log)).trim().split("\n").length;
  const coverage = await snapshotCoverage(log);
  assert.deepEqual(coverage.filter((c) => c.sessions > 1).map((c) => [c.seq, c.valid]), [
    [lines, true],
  ]);
});

/** Messages without the cache markers, which move to the last message of each request. */
function plain(messages: unknown): unknown {
  return JSON.parse(
    JSON.stringify(messages, (key, value) => key === "cache_control" ? undefined : value),
  );
}

/** What the read commands print for a log, keyed by command line. */
async function readCommands(
  log: string,
  at: number,
  session: string,
): Promise<Map<string, string>> {
  const runs: Array<[string, (io: CommandIo) => Promise<number>]> = [
    ["state", (io) => stateCommand(log, { json: false }, io)],
    ["state --json", (io) => stateCommand(log, { json: true }, io)],
    [`state --at ${at}`, (io) => stateCommand(log, { json: false, at }, io)],
    [`state --json --at ${at}`, (io) => stateCommand(log, { json: true, at }, io)],
    [`state --session ${session}`, (io) => stateCommand(log, { json: false, session }, io)],
    [`state --json --session ${session}`, (io) => stateCommand(log, { json: true, session }, io)],
    ["sessions", (io) => sessionsCommand(log, false, io)],
    ["sessions --json", (io) => sessionsCommand(log, true, io)],
  ];
  const printed = new Map<string, string>();
  for (const [args, run] of runs) {
    let text = "";
    const sink = { write: (chunk: string) => void (text += chunk) };
    const io = {
      stdout: sink,
      stderr: sink,
      stdoutIsTerminal: false,
      stderrIsTerminal: false,
      stdinIsTerminal: false,
    };
    assert.equal(await run(io), 0, args);
    printed.set(args, text);
  }
  return printed;
}

/** The log at `log` as it was up to event `seq`, while `fn` runs (snapshots taken then stay). */
async function asOf(log: string, seq: number, fn: () => Promise<unknown>): Promise<void> {
  const text = await Deno.readTextFile(log);
  const lines = text.split("\n").slice(0, seq);
  await Deno.writeTextFile(log, lines.map((l) => `${l}\n`).join(""));
  try {
    await fn();
  } finally {
    await Deno.writeTextFile(log, text);
  }
}

/** Rewrite the catalog snapshot at `seq`: its header and body as `edit` makes them. */
async function editSnapshot(
  log: string,
  seq: number,
  edit: (
    header: Record<string, unknown>,
    body: string,
  ) => Promise<[Record<string, unknown>, string]>,
): Promise<void> {
  const file = catalogSnapshotPath(log, seq);
  const [header, body] = (await Deno.readTextFile(file)).split("\n") as [string, string];
  const [edited, text] = await edit(JSON.parse(header), body);
  await Deno.writeTextFile(file, `${JSON.stringify(edited)}\n${text}\n`);
}

/** The logs the read commands are compared on: generated, golden (resumed, forked) and random. */
async function sampleLogs(dir: string): Promise<string[]> {
  const generated = join(dir, "generated", "events.jsonl");
  await Deno.mkdir(join(dir, "generated"));
  await generateLog(generated, { events: 2500, workspace: dir });
  const golden = join(dir, "golden", "events.jsonl");
  await Deno.mkdir(join(dir, "golden"));
  await Deno.copyFile(new URL("./golden/crash_resume.jsonl", import.meta.url), golden);
  const random: string[] = [];
  // Seed 13 with integer-like session ids, which an object lists before the others.
  for (const [seed, rename] of [[3, false], [5, false], [8, false], [13, true]] as const) {
    const path = join(dir, `random-${seed}`, "events.jsonl");
    await Deno.mkdir(join(dir, `random-${seed}`));
    const [events] = fc.sample(randomLog().filter((log) => log.length > 60), { seed, numRuns: 1 });
    const id = (session: string) => rename ? String(9 - Number(session.slice(1))) : session;
    const store = await openJsonlStore(path, { clock: fixedClock() });
    await store.append(events!.map(({ type, session, agent, data }) => {
      const forkedFrom = (data as { forkedFrom?: { session: string; seq: number } }).forkedFrom;
      const renamed = forkedFrom
        ? { ...data, forkedFrom: { ...forkedFrom, session: id(forkedFrom.session) } }
        : data;
      return { type, session: id(session), agent, data: renamed } as never;
    }));
    await store.close();
    random.push(path);
  }
  return [generated, golden, ...random];
}

Deno.test("state, state --json, --at, --session and sessions print the same from snapshots as from the log alone", async () => {
  await using dir = await tempDir();
  for (const log of await sampleLogs(dir.path)) {
    const lines = (await Deno.readTextFile(log)).trim().split("\n");
    const catalog = foldEvents(lines.map((l) => JSON.parse(l))).catalog;
    // The last session started (a fork in the golden log), and a seq in the middle.
    const session = catalog.order.at(-1)!;
    const at = Math.floor(lines.length * 0.6);
    const expected = await readCommands(log, at, session);
    // --json prints the whole fold of the log, every mechanism's slice included.
    const whole = (upTo: number) =>
      foldEvents(lines.slice(0, upTo).map((l) => JSON.parse(l)), PROJECTIONS, "all", CATALOG);
    const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
    assert.equal(expected.get("state --json"), json(whole(lines.length)));
    assert.equal(expected.get(`state --json --at ${at}`), json(whole(at)));
    const all = whole(lines.length);
    assert.equal(
      expected.get(`state --json --session ${session}`),
      json({
        ...all,
        sessions: { byId: { [session]: all.sessions.byId[session] }, order: [session] },
      }),
    );
    const same = async (what: string) => {
      const printed = await readCommands(log, at, session);
      for (const [args, text] of expected) {
        assert.equal(printed.get(args), text, `${what}: ${args} of ${log}`);
      }
    };
    // Snapshots of the catalog and of every session, at a third of the log and at its end.
    const third = Math.floor(lines.length / 3);
    await asOf(
      log,
      third,
      () =>
        buildSnapshot(log, {
          sessions: catalog.order,
          projections: PROJECTIONS,
          catalogProjections: CATALOG,
        }),
    );
    await buildSnapshot(log, {
      sessions: catalog.order,
      projections: PROJECTIONS,
      catalogProjections: CATALOG,
    });
    await same("from snapshots");
    // A catalog changed (a session's first prompt) at the end, with its checksum but without the
    // machine key: ignored.
    const forge = async (header: Record<string, unknown>, body: string) => {
      const forged = body.replaceAll('"firstPrompt":', '"firstPrompt":"forged","was":');
      return [{ ...header, checksum: await sha256Hex(forged) }, forged] as [
        Record<string, unknown>,
        string,
      ];
    };
    const original = await Deno.readTextFile(catalogSnapshotPath(log, lines.length));
    await editSnapshot(log, lines.length, forge);
    await same("a snapshot changed without the machine key");
    // Signed again with the key (as only rein can), it is trusted: it is read.
    await Deno.writeTextFile(catalogSnapshotPath(log, lines.length), original);
    const key = (await processMachineKey())!;
    await editSnapshot(log, lines.length, async (header, body) => {
      const [changed, text] = await forge(header, body);
      return [{ ...await signedHeader(changed as unknown as SnapshotHeader, key) }, text];
    });
    const forged = await readCommands(log, at, session);
    assert.match(forged.get("sessions --json") ?? "", /"forged"/, "the snapshot is used");
    assert.match(forged.get("state --json") ?? "", /"forged"/, "the snapshot is used");
    // Its body spoiled (checksum), or of other fold code: ignored, the one at a third is used.
    await editSnapshot(
      log,
      lines.length,
      (header, body) => Promise.resolve([header, `${body.slice(0, -2)}}}`]),
    );
    await same("a spoiled snapshot");
    await editSnapshot(log, lines.length, async (header, body) => {
      const [forgedHeader, forgedBody] = await forge(header, body);
      return [{ ...forgedHeader, fingerprint: "0".repeat(32) }, forgedBody];
    });
    await same("a fingerprint mismatch");
  }
});

Deno.test("replay finds sessions from the catalog snapshot, holds its output until the lines it counted are read, and reads the whole log when the catalog cannot place a session", async () => {
  await using dir = await tempDir();
  const log = join(dir.path, "events.jsonl");
  const read = async (name: string) =>
    (await Deno.readTextFile(new URL(`./golden/${name}`, import.meta.url))).trim().split("\n");
  const first = await read("six_tools.jsonl");
  const renumbered = (lines: string[], from: number) =>
    lines.map((line, i) => JSON.stringify({ ...JSON.parse(line), seq: from + i }));
  const second = renumbered(await read("cancel.jsonl"), first.length + 1);
  const write = (lines: string[]) => Deno.writeTextFile(log, lines.map((l) => `${l}\n`).join(""));
  const [one, two] = [first, second].map((lines) => JSON.parse(lines[0]!).session as string);
  await write([...first, ...second]);
  await buildSnapshot(log, {
    sessions: [one!, two!],
    projections: PROJECTIONS,
    catalogProjections: CATALOG,
  });
  const replay = () => runCli(["replay", log, "--verify"], { permissions: REPLAY_ONLY });
  const whole = await replay();
  assert.equal(whole.code, 0, whole.stderr);
  assert.match(whole.stdout, new RegExp(`✓ session ${one}: ${first.length} events replayed`));
  assert.match(whole.stdout, new RegExp(`✓ session ${two}: ${second.length} events replayed`));

  // Far after the first session, a line the snapshot counted is damaged: the error, and nothing
  // printed of the first session, though it was read (and replayed) whole before the damage.
  const generated = join(dir.path, "generated.jsonl");
  await generateLog(generated, { events: 3000, workspace: dir.path });
  const later = renumbered(
    (await Deno.readTextFile(generated)).trim().split("\n"),
    first.length + 1,
  );
  await write([...first, ...later]);
  const sessions = [...new Set([...first, ...later].map((l) => JSON.parse(l).session as string))];
  await buildSnapshot(log, { sessions, projections: PROJECTIONS, catalogProjections: CATALOG });
  const damaged = [...first, ...later];
  damaged[damaged.length - 10] = "{garbage";
  await write(damaged);
  const refused = await replay();
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, new RegExp(`line ${damaged.length - 9}`));
  assert.match(refused.stderr, /rein log check/);
  assert.equal(refused.stdout, "", "no output before the damage is known");

  // The second session without its session.started is in no catalog: replay reads the log to
  // find it, says it cannot replay it, and replays the first; --verify fails, as it verified less.
  await write([...first, ...renumbered(second.slice(1), first.length + 1)]);
  const skipped = await replay();
  assert.equal(skipped.code, 1, skipped.stderr);
  assert.match(skipped.stderr, new RegExp(`Skipping session ${two}: its first event is not`));
  assert.match(skipped.stdout, new RegExp(`✓ session ${one}: ${first.length} events replayed`));
});

/** Replay may read the log and the environment, nothing else. */
const REPLAY_ONLY = ["--allow-read", "--allow-env"];
