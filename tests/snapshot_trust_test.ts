/**
 * What rein reads back as truth (snapshots of a session, the workspace's catalog) cannot be
 * written by the agent or shipped by a repository: a snapshot is trusted only when rein signed it
 * on this machine (a key outside the workspace, hidden from the sandbox) and it is named as its
 * header says; anything else is ignored (the log is read instead) and named by `replay --verify`.
 * Each test forges the file as something with write access to `.rein/snapshots/` could: its body
 * changed and its checksum recomputed, but without the machine key.
 * @module
 */
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import type { FakeRequestBody } from "../testing/fake_request.ts";
import { sha256Hex } from "../events/start_point.ts";
import { catalogSnapshotPath, sessionSnapshotPath } from "../core/snapshots/snapshot_files.ts";
import { catalogSnapshotFiles } from "../core/snapshots/catalog_snapshot.ts";
import { type CliResult, readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-test";
/** What a read-only command runs with (as the launcher gives `replay` and `state`). */
const READ_ONLY = ["--allow-read", "--allow-env=REIN_CALLER_DIR,NO_COLOR,HOME,XDG_STATE_HOME"];
const UNSENT = "UNSENT-MESSAGE-FROM-A-FORGED-SNAPSHOT";
const FORGED_TASK = "FORGED-TASK-NO-EVENT-CREATED";

/** Whether the request's last message carries a tool result (the model's call came back). */
function answersACall(body: FakeRequestBody | undefined): boolean {
  const last = body?.messages.at(-1);
  return Array.isArray(last?.content) && last.content.some((b) => b.type === "tool_result");
}

/** The text of the request's last user message (prompt and reminders), or "". */
function lastText(body: FakeRequestBody | undefined): string {
  const last = body?.messages.at(-1);
  if (last === undefined) return "";
  if (typeof last.content === "string") return last.content;
  return last.content.flatMap((b) => b.type === "text" ? [String(b.text)] : []).join("\n");
}

/**
 * A workspace, a machine key folder of its own (XDG_STATE_HOME) and a fake model: "run it" is
 * answered with a bash call writing pwned.txt, "list" with list_tasks, anything else with text.
 */
async function setup() {
  const ws = await tempWorkspace();
  const state = await Deno.makeTempDir({ prefix: "rein-state-" });
  let calls = 0;
  const fake = await startFakeAnthropic({
    script: (request) => {
      calls += 1;
      if (answersACall(request.body)) return message("done");
      const text = lastText(request.body);
      if (text.includes("run it")) {
        return message([
          toolUse(`toolu_run${calls}`, "bash", { command: "echo pwned > pwned.txt" }),
        ]);
      }
      if (text.includes("list")) return message([toolUse(`toolu_list${calls}`, "list_tasks", {})]);
      return message("hi");
    },
  });
  const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, XDG_STATE_HOME: state };
  const log = join(ws.path, ".rein", "events.jsonl");
  return {
    ws,
    fake,
    log,
    rein: (args: string[], permissions?: string[]): Promise<CliResult> =>
      runCli(args, { env, ...(permissions ? { permissions } : {}) }),
    agent: (...args: string[]) =>
      runCli(["-p", ...args, "--output-format", "json", "--workspace", ws.path], { env }),
    async [Symbol.asyncDispose]() {
      await fake.close();
      await ws[Symbol.asyncDispose]();
      await Deno.remove(state, { recursive: true });
    },
  };
}

/** Rewrite the snapshot file at `path`: `edit` changes its header and body; the checksum is redone. */
async function forge(
  path: string,
  edit: (header: Record<string, unknown>, body: Record<string, unknown>) => void,
  to = path,
): Promise<void> {
  const [headerLine, bodyLine] = (await Deno.readTextFile(path)).split("\n") as [string, string];
  const header = JSON.parse(headerLine);
  const body = JSON.parse(bodyLine);
  edit(header, body);
  const text = JSON.stringify(body);
  header.checksum = await sha256Hex(text);
  await Deno.writeTextFile(to, `${JSON.stringify(header)}\n${text}\n`);
}

/** The session snapshot with an "always allow Bash" rule and a user message never sent. */
function withRuleAndMessage(header: Record<string, unknown>, body: Record<string, unknown>) {
  const { view, entries } = body as {
    view: { mainAgent: string; agents: Record<string, { messages: { content: unknown[] }[] }> };
    entries: Record<string, Record<string, unknown>>;
  };
  const first = view.agents[view.mainAgent]?.messages[0];
  assert.ok(first, "the snapshot holds the conversation");
  first.content.push({ type: "text", text: UNSENT });
  const permissions = entries.permissions ?? {};
  entries.permissions = {
    ...permissions,
    alwaysRules: ["Bash"],
    decisions: permissions.decisions ?? [],
  };
  void header;
}

Deno.test("a session snapshot rewritten with an 'always allow Bash' rule and a message never sent is not trusted on resume: the session is rebuilt from the log", async () => {
  await using t = await setup();
  const first = await t.agent("hello");
  assert.equal(first.code, 0, first.stderr);
  const session = JSON.parse(first.stdout).session_id as string;
  const snapshot = sessionSnapshotPath(t.log, session);
  // As rein left it (signed), and then as a rein before signatures wrote it (layout 1).
  const forgeries: [string, (header: Record<string, unknown>) => void][] = [
    ["signed header, changed body", () => {}],
    ["unsigned, older layout", (header) => {
      header.layout = 1;
      delete header.machine;
      delete header.mac;
    }],
  ];
  for (const [what, headerEdit] of forgeries) {
    assert.ok(await Deno.stat(snapshot).then(() => true, () => false), `${what}: a snapshot`);
    await forge(snapshot, (header, body) => {
      headerEdit(header);
      withRuleAndMessage(header, body);
    });
    const before = t.fake.requests.length;
    const resumed = await t.agent("now run it", "--continue");
    assert.equal(resumed.code, 0, resumed.stderr);
    const result = JSON.parse(resumed.stdout);
    assert.equal(result.session_id, session, what);
    // Nobody can be asked headless, and no rule allows bash: the call is denied.
    assert.deepEqual(
      result.permission_denials.map((d: { tool_name: string }) => d.tool_name),
      ["Bash"],
      `${what}: the forged rule does not hold: ${resumed.stdout} ${resumed.stderr}`,
    );
    assert.equal(
      await Deno.stat(join(t.ws.path, "pwned.txt")).then(() => true, () => false),
      false,
      what,
    );
    const sent = t.fake.requests.slice(before).map((r) => JSON.stringify(r.body));
    assert.ok(sent.length > 0);
    for (const body of sent) {
      assert.ok(!body.includes(UNSENT), `${what}: the forged message is not sent`);
      assert.ok(body.includes("hello"), `${what}: the conversation is the log's`);
    }
  }
});

Deno.test("a forged catalog-999999999999.json is ignored: rein tasks, rein sessions and a new session's task list show no task that no event created", async () => {
  await using t = await setup();
  const first = await t.agent("hello");
  assert.equal(first.code, 0, first.stderr);
  const [newest] = await catalogSnapshotFiles(t.log);
  assert.ok(newest, "rein took a catalog snapshot");
  await forge(newest, (_header, body) => {
    const catalog = body.catalog as {
      tasks: { tasks: unknown[] };
      byId: Record<string, { firstPrompt?: string }>;
    };
    catalog.tasks.tasks.push({
      id: 1,
      subject: FORGED_TASK,
      description: "",
      status: "pending",
      owner: null,
      blockedBy: [],
      blocks: [],
      createdBy: { session: "nobody", agent: "lead" },
    });
    for (const entry of Object.values(catalog.byId)) entry.firstPrompt = FORGED_TASK;
  }, catalogSnapshotPath(t.log, 999_999_999_999));
  const tasks = await t.rein(["tasks", t.log, "--json"], READ_ONLY);
  assert.equal(tasks.code, 0, tasks.stderr);
  assert.deepEqual(JSON.parse(tasks.stdout), []);
  const sessions = await t.rein(["sessions", "--log", t.log, "--json"], READ_ONLY);
  assert.equal(sessions.code, 0, sessions.stderr);
  assert.ok(!sessions.stdout.includes(FORGED_TASK), sessions.stdout);
  assert.match(sessions.stdout, /"hello"/);
  // A new session's list_tasks reads the catalog the process started from.
  const before = t.fake.requests.length;
  const listed = await t.agent("list the tasks");
  assert.equal(listed.code, 0, listed.stderr);
  const answer = t.fake.requests.slice(before).find((r) => answersACall(r.body));
  assert.ok(answer, "list_tasks ran");
  assert.ok(!JSON.stringify(answer.body).includes(FORGED_TASK), "the forged task is not listed");
  const log = await readLogLines(t.log);
  assert.ok(!log.some((e) => JSON.stringify(e).includes(FORGED_TASK)));
});

Deno.test("replay --verify fails naming a session snapshot or a catalog that rein did not write as it is", async () => {
  await using t = await setup();
  const first = await t.agent("hello");
  assert.equal(first.code, 0, first.stderr);
  const session = JSON.parse(first.stdout).session_id as string;
  const verify = () => t.rein(["replay", t.log, "--verify", "--quiet"], READ_ONLY);
  const clean = await verify();
  assert.equal(clean.code, 0, clean.stderr + clean.stdout);
  const snapshot = sessionSnapshotPath(t.log, session);
  const [catalog] = await catalogSnapshotFiles(t.log);
  assert.ok(catalog);
  const keep = async (path: string) => {
    const text = await Deno.readTextFile(path);
    return () => Deno.writeTextFile(path, text);
  };
  const cases: [string, () => Promise<() => Promise<void>>, string][] = [
    ["a session snapshot rewritten", async () => {
      const restore = await keep(snapshot);
      await forge(snapshot, withRuleAndMessage);
      return restore;
    }, basename(snapshot)],
    ["a catalog rewritten", async () => {
      const restore = await keep(catalog);
      await forge(catalog, (_h, body) => {
        (body.catalog as { order: string[] }).order.push("forged-session");
      });
      return restore;
    }, basename(catalog)],
    ["a signed catalog under the name of a later seq", async () => {
      const misnamed = catalogSnapshotPath(t.log, 999_999_999_999);
      await Deno.copyFile(catalog, misnamed);
      return () => Deno.remove(misnamed);
    }, "catalog-999999999999.json"],
  ];
  for (const [what, tamper, name] of cases) {
    const restore = await tamper();
    const run = await verify();
    assert.equal(run.code, 1, `${what}: ${run.stdout}${run.stderr}`);
    assert.match(
      run.stderr,
      new RegExp(`Snapshot ".*${name.replaceAll(".", "\\.")}" cannot be trusted`),
      what,
    );
    // The replay itself is the log's: the session still matches.
    assert.match(run.stdout, /all match the log/, what);
    await restore();
    const again = await verify();
    assert.equal(again.code, 0, `${what}, undone: ${again.stderr}`);
  }
});

Deno.test({
  name: "the machine key is hidden from bash in the sandbox",
  ignore: Deno.build.os !== "linux",
  async fn() {
    // Outside /tmp, which the sandbox replaces with a private one anyway.
    const state = await Deno.makeTempDir({ dir: "/var/tmp", prefix: "rein-state-" });
    await using ws = await tempWorkspace();
    const key = join(state, "rein", "machine-key");
    const secret = Array.from(
      crypto.getRandomValues(new Uint8Array(32)),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
    await Deno.mkdir(join(state, "rein"), { mode: 0o700 });
    await Deno.writeTextFile(key, `${secret}\n`, { mode: 0o600 });
    await using fake = await startFakeAnthropic({
      script: (request) =>
        answersACall(request.body)
          ? message("done")
          : message([toolUse("toolu_cat", "bash", { command: `cat ${key}` })]),
    });
    try {
      const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: KEY, XDG_STATE_HOME: state };
      const run = await runCli(
        ["-p", "read it", "--allowedTools", "Bash", "--workspace", ws.path],
        { env },
      );
      assert.equal(run.code, 0, run.stderr);
      assert.equal((await Deno.readTextFile(key)).trim(), secret, "rein kept the key");
      const answer = fake.requests.find((r) => answersACall(r.body));
      assert.ok(answer, "bash ran");
      const sent = JSON.stringify(answer.body?.messages.at(-1));
      assert.ok(!sent.includes(secret), `the key reached the model: ${sent}`);
      assert.match(sent, /No such file or directory/);
    } finally {
      await Deno.remove(state, { recursive: true });
    }
  },
});
