/**
 * Regenerates the golden logs in tests/golden/ by running the real CLI against the fake model
 * server: `deno task golden`. Do this when a deliberate change to the system prompt, a tool
 * schema or the event shapes makes `replay --verify` of the old goldens diverge, and review
 * the diff of the new logs.
 * @module
 */
import {
  cut,
  message,
  overloaded,
  promptTooLong,
  rateLimited,
  serverError,
  text,
  toolUse,
} from "../testing/fake_anthropic.ts";
import type { FakeScriptFn } from "../testing/fake_anthropic.ts";
import { startFakeAnthropic } from "../testing/fake_anthropic.ts";
import {
  allSixTools,
  faultThen,
  lastUserText,
  sequentialBash,
  toolResultCount,
} from "../testing/scenarios.ts";
import { childEnv, CLI } from "./_cli.ts";

const GOLDEN = new URL("./golden/", import.meta.url);

/** Run the CLI; resolves with its exit code. */
function spawnCli(args: string[], env: Record<string, string>) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", CLI, ...args],
    env: childEnv(env),
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "inherit",
  }).spawn();
}

async function waitForLog(
  path: string,
  predicate: (lines: Array<{ type: string; data: Record<string, unknown> }>) => boolean,
) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      const lines = (await Deno.readTextFile(path)).split("\n").filter(Boolean).map((l) =>
        JSON.parse(l)
      );
      if (predicate(lines)) return;
    } catch { /* not there yet */ }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`Timed out waiting for ${path}`);
}

async function record(name: string, script: FakeScriptFn, steps: (run: Runner) => Promise<void>) {
  await using fake = await startFakeAnthropic({ script });
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: `rein-golden-${name}-` }));
  const log = `${workspace}/.rein/events.jsonl`;
  const env = {
    ANTHROPIC_BASE_URL: fake.url,
    ANTHROPIC_API_KEY: "sk-golden-not-a-real-key",
    REIN_RETRY_BASE_MS: "5",
  };
  const runner: Runner = {
    log,
    async cli(...args: string[]) {
      return (await spawnCli([...args, "--workspace", workspace], env).status).code;
    },
    spawn: (...args: string[]) => spawnCli([...args, "--workspace", workspace], env),
  };
  try {
    await steps(runner);
    await Deno.copyFile(log, new URL(`${name}.jsonl`, GOLDEN));
    console.log(`tests/golden/${name}.jsonl`);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
}

interface Runner {
  log: string;
  cli(...args: string[]): Promise<number>;
  spawn(...args: string[]): Deno.ChildProcess;
}

function expect(code: number, wanted: number, what: string) {
  if (code !== wanted) throw new Error(`${what}: exit code ${code}, expected ${wanted}`);
}

if (import.meta.main) {
  await Deno.mkdir(GOLDEN, { recursive: true });

  await record("six_tools", allSixTools("notes/golden.txt"), async (run) => {
    expect(await run.cli("-p", "Use every tool on notes/golden.txt"), 0, "six tools");
  });

  await record(
    "faults",
    faultThen(
      [rateLimited(0.01), overloaded(), serverError(), cut()],
      (request, index) =>
        lastUserText(request.body) === "This prompt is too long"
          ? promptTooLong()
          : sequentialBash(2, (i) => `echo attempt ${i}`)(request, index),
    ),
    async (run) => {
      expect(await run.cli("-p", "Run two commands despite the faults"), 0, "faults");
      expect(await run.cli("--continue", "-p", "This prompt is too long"), 1, "prompt too long");
    },
  );

  // A crash between a bash intent and its result, then --continue; then a fork.
  await record(
    "crash_resume",
    sequentialBash(4, (i) => i === 2 ? "echo two >> out.txt; sleep 30" : `echo ${i} >> out.txt`),
    async (run) => {
      const child = run.spawn("-p", "Append four lines");
      await waitForLog(
        run.log,
        (lines) =>
          lines.some((l) => l.type === "tool.requested" && String(l.data.callId).endsWith("_2")),
      );
      child.kill("SIGKILL");
      await child.status;
      expect(await run.cli("--continue", "-p"), 0, "continue after crash");
      const lines = (await Deno.readTextFile(run.log)).split("\n").filter(Boolean).map((l) =>
        JSON.parse(l)
      );
      const first = lines[0];
      const forkAt = lines.find((l) => l.type === "tool.completed")?.seq;
      expect(
        await run.cli("--fork", `${first.session}@${forkAt}`, "-p", "Take another path"),
        0,
        "fork",
      );
    },
  );

  // Ctrl-C during a long bash call, then a new prompt in the same session.
  await record(
    "cancel",
    (request) =>
      lastUserText(request.body) === "Sleep a while" && toolResultCount(request.body) === 0
        ? message([
          text("Sleeping."),
          toolUse("toolu_sleep", "bash", { command: "sleep 30" }),
          toolUse("toolu_next", "bash", { command: "echo never" }),
        ])
        : message(`You said: ${lastUserText(request.body)}`),
    async (run) => {
      const child = run.spawn("-p", "Sleep a while");
      await waitForLog(run.log, (lines) => lines.some((l) => l.type === "tool.requested"));
      child.kill("SIGINT");
      expect((await child.status).code, 130, "cancelled run");
      expect(await run.cli("--continue", "-p", "Are you still there?"), 0, "after cancel");
    },
  );
}
