/**
 * `rein view`'s server without a browser: every request needs the token; it listens on
 * 127.0.0.1 only; what a session's page shows at a seq is the fold `rein state --json --at`
 * prints (folded from the snapshots, from the checkpoints of its background pass, and forward
 * from the end); the timeline comes in pages; the scrubber steps one event of the session; the
 * live stream sends what is appended after the page opened; a spilled output is linked and served
 * from the log's outputs folder only; the cost and context series are split by model too.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startViewServer } from "../cli/view/view_server.ts";
import { seriesKey, SessionStates } from "../cli/view/session_states.ts";
import { OUTPUT_LIMIT, spilledOutput } from "../cli/view/spilled_output.ts";
import { costOf } from "../core/models/cost.ts";
import { sessionPanels } from "../cli/view/panels.ts";
import { readEvents } from "../events/read_log.ts";
import { runCli } from "./_cli.ts";

const GOLDEN = new URL("./golden/", import.meta.url);
const READ_ONLY = ["--allow-read", "--allow-env"];

type Line = { seq: number; session: string; type: string };

async function goldenCopy(name: string, lines?: number): Promise<{ dir: string; log: string }> {
  const dir = await Deno.makeTempDir({ prefix: "rein-view-" });
  const log = join(dir, "events.jsonl");
  const text = await Deno.readTextFile(new URL(name, GOLDEN));
  const kept = lines === undefined ? text : text.split("\n").slice(0, lines).join("\n") + "\n";
  await Deno.writeTextFile(log, kept);
  return { dir, log };
}

async function linesOf(log: string): Promise<Line[]> {
  return (await Deno.readTextFile(log)).split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

/** What `rein state --json --at` says of session `id`'s agents and todos: the page's fields. */
async function stateAt(log: string, id: string, at: number) {
  const out = await runCli(["state", log, "--json", "--at", String(at)], {
    permissions: READ_ONLY,
  });
  assert.equal(out.code, 0, out.stderr);
  const state = JSON.parse(out.stdout);
  const view = state.sessions.byId[id];
  const agents = Object.values(view.agents as Record<string, Record<string, unknown>>).map((a) => ({
    name: a.name,
    status: a.status,
    rounds: a.rounds,
    contextTokens: a.contextTokens,
    usage: a.usage,
  }));
  return { status: view.status, usage: view.usage, agents, lastSeq: state.lastSeq };
}

function shown(panels: {
  status: string;
  usage: unknown;
  agents: Array<Record<string, unknown>>;
  at: number;
}) {
  return {
    status: panels.status,
    usage: panels.usage,
    agents: panels.agents.map((a) => ({
      name: a.name,
      status: a.status,
      rounds: a.rounds,
      contextTokens: a.contextTokens,
      usage: a.usage,
    })),
    lastSeq: panels.at,
  };
}

Deno.test("rein view answers 403 without its token and listens on 127.0.0.1 only", async () => {
  const { dir, log } = await goldenCopy("six_tools.jsonl");
  const server = await startViewServer({ log });
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/\?t=[0-9a-f]{32}$/);
    const base = `http://127.0.0.1:${server.port}`;
    for (const path of ["/", "/page.js", `/api/session/x/state`, "/?t=wrong"]) {
      const response = await fetch(`${base}${path}`);
      assert.equal(response.status, 403, path);
      await response.body?.cancel();
    }
    const ok = await fetch(server.url);
    assert.equal(ok.status, 200);
    const page = await ok.text();
    const [id] = (await linesOf(log)).map((l) => l.session);
    assert.ok(page.includes(`/session/${id}?t=${server.token}`), page);
    // Not on another address of the machine.
    const other = Deno.networkInterfaces().find((i) =>
      i.family === "IPv4" && i.address !== "127.0.0.1"
    );
    if (other !== undefined) {
      await assert.rejects(
        fetch(`http://${other.address}:${server.port}${new URL(server.url).search}`),
      );
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a session's state at a seq is rein state --json --at's: at its end, from the start, from checkpoints and forward", async () => {
  const { dir, log } = await goldenCopy("crash_resume.jsonl");
  const server = await startViewServer({ log });
  try {
    const lines = await linesOf(log);
    for (const id of [...new Set(lines.map((l) => l.session))]) {
      const seqs = lines.filter((l) => l.session === id).map((l) => l.seq);
      const picks = [
        ...new Set([
          seqs[0]!,
          seqs[1]!,
          seqs[Math.floor(seqs.length / 2)]!,
          seqs.at(-2)!,
          seqs.at(-1)!,
        ]),
      ];
      const api = (at: number) =>
        fetch(`http://127.0.0.1:${server.port}/api/session/${id}/state?at=${at}&t=${server.token}`)
          .then((r) => r.json());
      // Opening the page starts the background pass; ask before and after it.
      const before = await Promise.all(picks.map(api));
      const page = await fetch(`http://127.0.0.1:${server.port}/session/${id}?t=${server.token}`);
      assert.equal(page.status, 200);
      await page.body?.cancel();
      for (
        let i = 0;
        i < 50 &&
        !(await fetch(`http://127.0.0.1:${server.port}/api/session/${id}/series?t=${server.token}`)
          .then((r) => r.json())).ready;
        i++
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const after = await Promise.all(picks.map(api));
      for (const [i, at] of picks.entries()) {
        const expected = await stateAt(log, id, at);
        assert.deepEqual(shown(before[i]), expected, `session ${id} at ${at}, before the pass`);
        assert.deepEqual(shown(after[i]), expected, `session ${id} at ${at}, after the pass`);
      }
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the states at every seq from the background pass's checkpoints equal folds from the snapshots", async () => {
  const { dir, log } = await goldenCopy("six_tools.jsonl");
  try {
    const lines = await linesOf(log);
    const id = lines[0]!.session;
    const folded = new SessionStates(log, id, 1, []);
    const direct = await Promise.all(
      lines.map((l) =>
        folded.at(l.seq, (state) => JSON.stringify(sessionPanels(state, id, l.seq)))
      ),
    );
    await folded.build();
    assert.deepEqual(folded.seqs, lines.map((l) => l.seq));
    // Out of order: back from later checkpoints, and forward from the end.
    for (const l of [...lines].reverse()) {
      const panels = await folded.at(
        l.seq,
        (state) => JSON.stringify(sessionPanels(state, id, l.seq)),
      );
      assert.equal(panels, direct[l.seq - 1], `at ${l.seq}`);
    }
    assert.deepEqual(Object.keys(folded.series()), ["lead"]);
    assert.equal(
      folded.series().lead!.length,
      lines.filter((l) => l.type === "model.responded").length,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the timeline comes in pages and the scrubber steps one event of the session", async () => {
  const { dir, log } = await goldenCopy("crash_resume.jsonl");
  const server = await startViewServer({ log });
  try {
    const lines = await linesOf(log);
    const id = lines.at(-1)!.session;
    const seqs = lines.filter((l) => l.session === id).map((l) => l.seq);
    const get = (path: string) =>
      fetch(`http://127.0.0.1:${server.port}/api/session/${id}${path}&t=${server.token}`).then((
        r,
      ) => r.json());
    const first = await get(`/events?from=${seqs[0]}&limit=5`);
    assert.deepEqual(first.items.map((i: { seq: number }) => i.seq), seqs.slice(0, 5));
    assert.equal(first.next, seqs[5]);
    const rest = await get(`/events?from=${first.next}&limit=1000`);
    assert.deepEqual(rest.items.map((i: { seq: number }) => i.seq), seqs.slice(5));
    assert.equal(rest.next, null);
    // A row's whole event (upcast, as the fold reads it), for what its row collapsed.
    const read = (await readEvents(log)).find((e) => e.seq === seqs[2]);
    assert.deepEqual(await get(`/event/${seqs[2]}?`), read);
    await (await fetch(`http://127.0.0.1:${server.port}/session/${id}?t=${server.token}`)).body
      ?.cancel();
    await get(`/series?`);
    for (let i = 0; i < 50 && !(await get(`/series?`)).ready; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const mid = seqs[3]!;
    assert.equal((await get(`/state?at=${mid}&step=1`)).at, seqs[4]);
    assert.equal((await get(`/state?at=${mid}&step=-1`)).at, seqs[2]);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the live stream sends a row for an event appended after the page opened", async () => {
  const all = (await Deno.readTextFile(new URL("six_tools.jsonl", GOLDEN))).split("\n").filter(
    Boolean,
  );
  const { dir, log } = await goldenCopy("six_tools.jsonl", 10);
  const server = await startViewServer({ log });
  try {
    const id = JSON.parse(all[0]!).session;
    const stream = await fetch(
      `http://127.0.0.1:${server.port}/api/session/${id}/live?from=11&t=${server.token}`,
    );
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("event: hello")) text += (await reader.read()).value ?? "";
    await Deno.writeTextFile(log, `${all[10]}\n`, { append: true });
    while (!text.includes('"seq":11')) text += (await reader.read()).value ?? "";
    const item = text.split("\n\n").find((m) => m.includes('"seq":11'))!;
    assert.match(item, /^event: item\ndata: /);
    assert.equal(JSON.parse(item.split("data: ")[1]!).type, JSON.parse(all[10]!).type);
    await reader.cancel();
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a spilled output is linked from its row and served from the log's outputs folder only", async () => {
  const { dir, log } = await goldenCopy("six_tools.jsonl");
  const server = await startViewServer({ log });
  try {
    const lines = await linesOf(log);
    const id = lines[0]!.session;
    const whole = "line of a long output\n".repeat(500);
    const spilled = {
      v: 1,
      seq: lines.length + 1,
      ts: "2026-11-22T04:46:58.000Z",
      type: "context.spilled",
      session: id,
      agent: "lead",
      data: {
        results: [{
          callId: "toolu_big",
          path: ".rein/outputs/toolu_big.txt",
          chars: whole.length,
          preview: "line of a long output\n[The whole output is in .rein/outputs/toolu_big.txt]",
        }],
      },
    };
    await Deno.writeTextFile(log, `${JSON.stringify(spilled)}\n`, { append: true });
    const outputs = join(dir, "outputs");
    await Deno.mkdir(join(outputs, "sub"), { recursive: true });
    await Deno.writeTextFile(join(outputs, "toolu_big.txt"), whole);
    await Deno.writeTextFile(join(dir, "secret.txt"), "not an output");
    await Deno.symlink(join(dir, "secret.txt"), join(outputs, "leak.txt"));
    await Deno.writeTextFile(join(outputs, "huge.txt"), "x".repeat(OUTPUT_LIMIT + 10));
    const logBefore = await Deno.readTextFile(log);

    const base = `http://127.0.0.1:${server.port}`;
    const page = await fetch(`${base}/api/session/${id}/events?from=1&limit=1000&t=${server.token}`)
      .then((r) => r.json());
    const row = page.items.find((i: { type: string }) => i.type === "context.spilled");
    assert.deepEqual(row.outputs, ["toolu_big.txt"]);

    const get = (name: string, token = server.token) => fetch(`${base}/output/${name}?t=${token}`);
    const ok = await get("toolu_big.txt");
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.equal(await ok.text(), whole);
    const forbidden = await get("toolu_big.txt", "wrong");
    assert.equal(forbidden.status, 403);
    await forbidden.body?.cancel();
    // Not a plain name, a symlink out of the folder, a folder, a file elsewhere, nothing.
    for (
      const name of [
        "leak.txt",
        "sub",
        "secret.txt",
        "missing.txt",
        "%2E%2E%2Fsecret.txt",
        "%E0%A4%A",
      ]
    ) {
      const refused = await get(name);
      assert.equal(refused.status, 404, name);
      await refused.body?.cancel();
    }
    for (const name of ["..", ".", ".hidden", "../secret.txt", "sub/../toolu_big.txt", ""]) {
      const refused = await spilledOutput(log, name);
      assert.equal(refused.status, 404, name);
      await refused.body?.cancel();
    }
    const huge = await (await get("huge.txt")).text();
    assert.ok(huge.startsWith("x".repeat(OUTPUT_LIMIT)));
    assert.ok(!huge.startsWith("x".repeat(OUTPUT_LIMIT + 1)));
    assert.match(huge, /Only the first \d+ of \d+ bytes are shown/);
    assert.equal(await Deno.readTextFile(log), logBefore);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the cost and context series are also split by model when an agent switched model", async () => {
  const { dir, log } = await goldenCopy("six_tools.jsonl");
  const server = await startViewServer({ log });
  try {
    // The lead switches to another model after its third answer.
    const all = (await Deno.readTextFile(log)).split("\n").filter(Boolean).map((l) =>
      JSON.parse(l)
    );
    const third = all.filter((e) => e.type === "model.responded")[2];
    const at = all.indexOf(third) + 1;
    const switched = {
      ...third,
      seq: third.seq + 1,
      type: "model.switched",
      data: { model: "claude-haiku-4-5", maxTokens: 32000, from: "claude-sonnet-5-5" },
    };
    const events = [
      ...all.slice(0, at),
      switched,
      ...all.slice(at).map((e) => ({ ...e, seq: e.seq + 1 })),
    ];
    await Deno.writeTextFile(log, events.map((e) => `${JSON.stringify(e)}\n`).join(""));
    const id = events[0].session;
    const answers = events.filter((e) => e.type === "model.responded");

    const series = async () => {
      const got = await fetch(
        `http://127.0.0.1:${server.port}/api/session/${id}/series?t=${server.token}`,
      ).then((r) => r.json());
      return got;
    };
    let got = await series();
    for (let i = 0; i < 100 && !got.ready; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      got = await series();
    }
    assert.ok(got.ready);
    // The agent's own series as before: every answer, the cost of all its models.
    assert.deepEqual(Object.keys(got.series), ["lead"]);
    assert.deepEqual(got.series.lead.map((p: { seq: number }) => p.seq), answers.map((e) => e.seq));
    // And one per model it used, named `agent · model`.
    const sonnet = seriesKey("lead", "claude-sonnet-5-5");
    const haiku = seriesKey("lead", "claude-haiku-4-5");
    assert.equal(haiku, "lead · claude-haiku-4-5");
    assert.deepEqual(Object.keys(got.byModel), [sonnet, haiku]);
    assert.deepEqual(
      got.byModel[sonnet].map((p: { seq: number }) => p.seq),
      answers.slice(0, 3).map((e) => e.seq),
    );
    assert.deepEqual(
      got.byModel[haiku].map((p: { seq: number }) => p.seq),
      answers.slice(3).map((e) => e.seq),
    );
    const usage = answers.slice(3).reduce(
      (sum, e) => ({
        input_tokens: sum.input_tokens + e.data.usage.input_tokens,
        output_tokens: sum.output_tokens + e.data.usage.output_tokens,
        cache_read_input_tokens: sum.cache_read_input_tokens +
          (e.data.usage.cache_read_input_tokens ?? 0),
        cache_creation_input_tokens: sum.cache_creation_input_tokens +
          (e.data.usage.cache_creation_input_tokens ?? 0),
      }),
      {
        input_tokens: 0,
        output_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation_input_tokens: 0,
      },
    );
    const haikuCost = costOf("claude-haiku-4-5", usage);
    assert.ok(haikuCost > 0);
    assert.ok(Math.abs(got.byModel[haiku].at(-1).costUsd - haikuCost) < 1e-12);
    const total = got.byModel[sonnet].at(-1).costUsd + got.byModel[haiku].at(-1).costUsd;
    assert.ok(Math.abs(got.series.lead.at(-1).costUsd - total) < 1e-12);
    assert.equal(got.byModel[haiku].at(-1).contextTokens, got.series.lead.at(-1).contextTokens);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
