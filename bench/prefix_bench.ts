/**
 * Prefix stability of the requests of a long session: `deno bench -A bench/prefix_bench.ts`.
 *
 * One scripted 30-round headless run against the fake server, in a workspace with a CLAUDE.md:
 * todo lists written and updated, files read, searched and edited, commands run. For each request
 * but the last, the share of its bytes that the next request repeats byte for byte from the
 * start; the mean is what the provider's prompt cache can serve (target ≥ 95%). The bench times
 * the whole run; the figure is printed when the bench unloads.
 *
 * @module
 */
import { join } from "node:path";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import type { FakeScriptFn } from "../testing/fake_replies.ts";

const ROUNDS = 30;
const MAIN = new URL("../cli/main.ts", import.meta.url).pathname;

/** The call of round `n` (1-based); the last round answers. */
function callOf(n: number): ReturnType<typeof toolUse> {
  const todos = (done: number) => ({
    todos: ["Read the notes", "Find the TODOs", "Fix them", "Run the checks"].map((content, i) => ({
      content,
      activeForm: `${content}…`,
      status: i < done ? "completed" : i === done ? "in_progress" : "pending",
    })),
  });
  const id = `toolu_${n}`;
  if (n % 10 === 1) return toolUse(id, "todo_write", todos(Math.floor(n / 10)));
  switch (n % 5) {
    case 0:
      return toolUse(id, "read_file", { path: "notes.md" });
    case 1:
      return toolUse(id, "grep", { pattern: "TODO" });
    case 2:
      return toolUse(id, "edit_file", {
        path: "notes.md",
        old_string: `step ${n - 1}`,
        new_string: `step ${n}`,
      });
    case 3:
      return toolUse(id, "glob", { pattern: "**/*.md" });
    default:
      return toolUse(id, "bash", { command: `echo round ${n}` });
  }
}

const script: FakeScriptFn = (request) => {
  const round = (request.body?.messages ?? []).filter((m) => m.role === "assistant").length + 1;
  return round < ROUNDS
    ? message([callOf(round)])
    : message("Done: the notes are fixed and the checks pass.");
};

/** The share of `a` that `b` repeats from its first byte. */
function prefixShare(a: string, b: string): number {
  let i = 0;
  while (i < a.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i / a.length;
}

const shares: number[] = [];

Deno.bench({
  name: `prefix stability over a ${ROUNDS}-round session`,
  n: 3,
  warmup: 0,
  async fn() {
    await using fake = await startFakeAnthropic({ script });
    const workspace = await Deno.makeTempDir({ prefix: "rein-prefix-bench-" });
    try {
      await Deno.writeTextFile(
        join(workspace, "CLAUDE.md"),
        "# Project\n\nKeep notes short. Run `make check` before you finish.\n",
      );
      await Deno.writeTextFile(join(workspace, "notes.md"), "# Notes\n\nTODO: step 1\n");
      const run = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--quiet",
          MAIN,
          "-p",
          "fix the notes",
          "--permission-mode",
          "bypassPermissions",
          "--workspace",
          workspace,
        ],
        env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-fake-bench-key" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      if (!run.success) throw new Error(new TextDecoder().decode(run.stderr));
      const bodies = fake.requests.map((request) => request.rawBody);
      if (bodies.length !== ROUNDS) {
        throw new Error(`Expected ${ROUNDS} requests, got ${bodies.length}`);
      }
      for (let i = 0; i + 1 < bodies.length; i++) {
        shares.push(prefixShare(bodies[i] as string, bodies[i + 1] as string));
      }
    } finally {
      await Deno.remove(workspace, { recursive: true });
    }
  },
});

globalThis.addEventListener("unload", () => {
  if (shares.length === 0) return;
  const mean = shares.reduce((sum, share) => sum + share, 0) / shares.length;
  const worst = Math.min(...shares);
  console.log(
    `\nprefix stability: ${(mean * 100).toFixed(1)}% of each request's bytes repeated by the ` +
      `next on average (target ≥ 95%); worst pair ${(worst * 100).toFixed(1)}%`,
  );
});
