/**
 * `rein view`'s server without a browser: every request needs the token; it listens on
 * 127.0.0.1 only; what a session's page shows at a seq is the fold `rein state --json --at`
 * prints (folded from the snapshots, from the checkpoints of its background pass, and forward
 * from the end); the timeline comes in pages; the scrubber steps one event of the session; the
 * live stream sends what is appended after the page opened.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startViewServer } from "../cli/view/view_server.ts";
import { SessionStates } from "../cli/view/session_states.ts";
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
