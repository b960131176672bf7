/**
 * Prefix stability of the requests of a long session: `deno bench -A bench/prefix_bench.ts`.
 *
 * Issue 9's scripted session (testing/long_session.ts: 30 rounds of the lead with a todo list, a
 * loaded skill, CLAUDE.md, commands and two subagents at once) as one headless run against the
 * fake server. For each of the lead's requests but the last, the share of its bytes that its next
 * request repeats byte for byte from the start; the mean is what the provider's prompt cache can
 * serve (target ≥ 95%). The bench times the whole run; the figure is printed when it unloads.
 *
 * @module
 */
import { join } from "node:path";
import { startFakeAnthropic } from "../testing/fake_anthropic.ts";
import { LEAD, longSession, ROUNDS } from "../testing/long_session.ts";

const MAIN = new URL("../cli/main.ts", import.meta.url).pathname;

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
    await using fake = await startFakeAnthropic({ script: longSession });
    const workspace = await Deno.makeTempDir({ prefix: "rein-prefix-bench-" });
    try {
      await Deno.writeTextFile(join(workspace, "CLAUDE.md"), "Keep the report short.\n");
      const run = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--quiet",
          MAIN,
          "-p",
          LEAD,
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
      // The lead's requests: the subagents' have conversations of their own.
      const bodies = fake.requests.filter((request) => {
        const first = request.body?.messages[0]?.content;
        const text = typeof first === "string" ? first : JSON.stringify(first ?? "");
        return text.includes(LEAD);
      }).map((request) => request.rawBody);
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
