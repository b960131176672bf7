/**
 * A resumed session's permissions: it starts from the mode of the person's settings and flags,
 * whatever mode was switched to in it, and a session recorded elsewhere (another machine, or a
 * `.rein/events.jsonl` a repository shipped, with or without machine ids) is opened with a
 * warning and none of the grants recorded in it. A session of one's own keeps its "always" rules.
 * Each machine is a machine key folder of its own (XDG_STATE_HOME).
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import type { FakeRequestBody } from "../testing/fake_request.ts";
import { openJsonlStore } from "../events/jsonl_store.ts";
import type { NewEvent } from "../events/event_types.ts";
import { readLogLines, runCli, tempWorkspace } from "./_cli.ts";

const KEY = "sk-ant-test";

/** Whether the request's last message carries a tool result. */
function answersACall(body: FakeRequestBody | undefined): boolean {
  const last = body?.messages.at(-1);
  return Array.isArray(last?.content) && last.content.some((b) => b.type === "tool_result");
}

/**
 * A workspace, two machines, and a fake model: a prompt with "make" is answered with a
 * write_file call (written.txt) and a bash call (touch touched.txt), anything else with text.
 */
async function setup() {
  const ws = await tempWorkspace();
  const machines = {
    theirs: await Deno.makeTempDir({ prefix: "rein-machine-a-" }),
    mine: await Deno.makeTempDir({ prefix: "rein-machine-b-" }),
  };
  let calls = 0;
  const fake = await startFakeAnthropic({
    script: (request) => {
      calls += 1;
      if (answersACall(request.body)) return message("done");
      if (!JSON.stringify(request.body?.messages.at(-1) ?? "").includes("make")) {
        return message("hi");
      }
      return message([
        toolUse(`toolu_w${calls}`, "write_file", { path: "written.txt", content: "x\n" }),
        toolUse(`toolu_b${calls}`, "bash", { command: "touch touched.txt" }),
      ]);
    },
  });
  const log = join(ws.path, ".rein", "events.jsonl");
  return {
    ws,
    log,
    fake,
    /** `rein -p PROMPT ARGS…` on `machine`, as JSON output. */
    agent: (machine: keyof typeof machines, prompt: string, ...args: string[]) =>
      runCli(["-p", prompt, ...args, "--output-format", "json", "--workspace", ws.path], {
        env: {
          ANTHROPIC_BASE_URL: fake.url,
          ANTHROPIC_API_KEY: KEY,
          XDG_STATE_HOME: machines[machine],
        },
      }),
    exists: (name: string) => Deno.stat(join(ws.path, name)).then(() => true, () => false),
    async [Symbol.asyncDispose]() {
      await fake.close();
      await ws[Symbol.asyncDispose]();
      for (const dir of Object.values(machines)) await Deno.remove(dir, { recursive: true });
    },
  };
}

/**
 * Append to session `session` of the log what a person's Shift+Tab to bypassPermissions and
 * "always" answers record (as the REPL and the permission question record them).
 */
async function grant(log: string, session: string, rules: readonly string[]): Promise<void> {
  const lines = await readLogLines(log);
  const agent = String(lines.find((e) => e.session === session)?.agent);
  const store = await openJsonlStore(log, { clock: () => new Date() });
  try {
    const events: NewEvent[] = [
      { type: "permission.mode_changed", data: { mode: "bypassPermissions" }, session, agent },
      ...rules.map((rule, i): NewEvent => ({
        type: "permission.decided",
        data: {
          callId: `toolu_old${i}`,
          tool: "bash",
          decision: "allow",
          source: { kind: "user", answer: "always", rule },
          reason: `The user allowed it and calls matching "${rule}" from now on`,
        },
        session,
        agent,
      })),
    ];
    await store.append(events, { sync: true });
  } finally {
    await store.close();
  }
}

/** The tool names of a result's permission_denials, sorted. */
function denied(stdout: string): string[] {
  const result = JSON.parse(stdout);
  return result.permission_denials.map((d: { tool_name: string }) => d.tool_name).sort();
}

Deno.test("a shipped .rein/events.jsonl whose session switched to bypassPermissions and allowed 'always' is continued with a warning, in the person's default mode, with none of its grants", async () => {
  for (const variant of ["recorded on another machine", "recorded without machine ids"]) {
    await using t = await setup();
    // Recorded on "their" machine: the repository's author (or a forger).
    const first = await t.agent("theirs", "hello");
    assert.equal(first.code, 0, first.stderr);
    const session = JSON.parse(first.stdout).session_id as string;
    await grant(t.log, session, ["Bash(touch *)", "Write"]);
    if (variant === "recorded without machine ids") {
      const text = await Deno.readTextFile(t.log);
      await Deno.writeTextFile(t.log, text.replace(/,"machine":"[0-9a-f]+"/g, ""));
      assert.ok(!(await Deno.readTextFile(t.log)).includes('"machine"'), variant);
    }
    const resumed = await t.agent("mine", "make the files", "--continue");
    assert.equal(resumed.code, 0, `${variant}: ${resumed.stderr}`);
    assert.equal(JSON.parse(resumed.stdout).session_id, session, variant);
    // Headless in the default mode: both calls would ask, so both are denied.
    assert.deepEqual(denied(resumed.stdout), ["Bash", "Write"], variant);
    assert.equal(await t.exists("written.txt"), false, variant);
    assert.equal(await t.exists("touched.txt"), false, variant);
    assert.match(
      resumed.stderr,
      new RegExp(`session ${session} was not recorded on this machine`),
      variant,
    );
  }
});

Deno.test("a session of one's own resumed after Shift+Tab to bypassPermissions starts in the mode of the settings, and keeps its 'always' rules", async () => {
  await using t = await setup();
  const first = await t.agent("mine", "hello");
  assert.equal(first.code, 0, first.stderr);
  const session = JSON.parse(first.stdout).session_id as string;
  await grant(t.log, session, ["Bash(touch *)"]);
  const resumed = await t.agent("mine", "make the files", "--continue");
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.doesNotMatch(resumed.stderr, /not recorded on this machine/);
  // The write would ask in the default mode: denied headless. The bash call is allowed by the
  // rule the person allowed "always" in this session, on this machine.
  assert.deepEqual(denied(resumed.stdout), ["Write"]);
  assert.equal(await t.exists("written.txt"), false);
  assert.equal(await t.exists("touched.txt"), true);
  // A mode given on the command line is the mode of the resume.
  const accept = await t.agent(
    "mine",
    "make the files again",
    "--continue",
    "--permission-mode",
    "acceptEdits",
  );
  assert.equal(accept.code, 0, accept.stderr);
  assert.deepEqual(denied(accept.stdout), []);
  assert.equal(await t.exists("written.txt"), true);
});
