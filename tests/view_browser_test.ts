/**
 * `rein view` in a real browser (Chromium driven by puppeteer-core), one browser for the file:
 * the page of a recorded golden session and of a live scripted team run (a lead, two teammates
 * in their own processes, tasks, todos, mail) against the fake model. What the panels show is
 * checked against `rein state --json --at` at several seqs, reached by clicking and dragging the
 * scrubber and stepping one event; the live run's tool calls, mail and tasks appear without a
 * reload. With REIN_SCREENSHOTS=1 the live run's timeline and task graph are saved to docs/.
 * Skipped, saying so, where no Chromium is installed (Debian: `apt-get install chromium`).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import type { Envelope } from "../events/event_types.ts";
import {
  type FakeReply,
  message,
  type RecordedRequest,
  startFakeAnthropic,
  toolUse,
} from "../testing/fake_anthropic.ts";
import { firstUserText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { startViewServer, type ViewServer } from "../cli/view/view_server.ts";
import { runCli } from "./_cli.ts";
import { CliProcess } from "./_cli_process.ts";

const GOLDEN = new URL("./golden/", import.meta.url);
const DOCS = new URL("../docs/", import.meta.url);

/** The Chromium to drive: $REIN_CHROMIUM, else a usual install path; undefined when none. */
function chromiumPath(): string | undefined {
  const candidates = [
    Deno.env.get("REIN_CHROMIUM"),
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
  ];
  return candidates.find((path) => {
    if (!path) return false;
    try {
      return Deno.statSync(path).isFile;
    } catch {
      return false;
    }
  });
}

const CHROMIUM = chromiumPath();
if (CHROMIUM === undefined) {
  console.warn(
    "Skipping the rein view browser tests: no Chromium found (install the Debian package " +
      "`chromium`, or set REIN_CHROMIUM to a Chromium binary)",
  );
}

/** One row of the agents panel, as the page shows it or as `rein state --json` has it. */
interface AgentRow {
  name: string;
  status: string;
  rounds: number;
  input: number;
  output: number;
}

/** What the panels show, as compared with `rein state --json --at`. */
interface Shown {
  agents: AgentRow[];
  tasks: Array<{ id: number; status: string; owner: string }>;
  team: Array<{ name: string; status: string }>;
  todos: Array<{ agent: string; status: string }>;
}

async function stateAt(log: string, session: string, at: number): Promise<Shown> {
  const out = await runCli(["state", log, "--json", "--at", String(at)], {
    permissions: ["--allow-read", "--allow-env"],
  });
  assert.equal(out.code, 0, out.stderr);
  const state = JSON.parse(out.stdout);
  const view = state.sessions.byId[session];
  type Usage = { input_tokens: number; output_tokens: number };
  const agents = Object.values(
    view.agents as Record<string, { name: string; status: string; rounds: number; usage: Usage }>,
  ).map((a) => ({
    name: a.name,
    status: a.status,
    rounds: a.rounds,
    input: a.usage.input_tokens,
    output: a.usage.output_tokens,
  }));
  type Task = { id: number; status: string; owner: { agent: string } | null };
  const tasks = (state.catalog.tasks.tasks as Task[]).map((t) => ({
    id: t.id,
    status: t.status,
    owner: t.owner?.agent ?? "",
  }));
  type Entry = { session: string; name: string; status: string };
  const roster = state.catalog.team as { order: string[]; byKey: Record<string, Entry> };
  const team = roster.order.flatMap((key) => roster.byKey[key] ?? [])
    .filter((entry) => entry.session === session)
    .map((entry) => ({ name: entry.name, status: entry.status }));
  const lists = (state.extensions.todos[session] ?? {}) as Record<
    string,
    { todos: Array<{ status: string }> }
  >;
  const todos = Object.entries(lists).flatMap(([agent, list]) =>
    list.todos.map((t) => ({ agent, status: t.status }))
  );
  return { agents, tasks, team, todos };
}

/**
 * What the page's panels show, read in the page (a script in a string: this file is checked
 * without the DOM's types).
 */
const SHOWN_SCRIPT = `(() => {
  const rows = (selector) => [...document.querySelectorAll(selector)];
  return {
    agents: rows("#agents tr[data-agent]").map((r) => ({
      name: r.dataset.agent,
      status: r.dataset.status,
      rounds: Number(r.dataset.rounds),
      input: Number(r.dataset.inputTokens),
      output: Number(r.dataset.outputTokens),
    })),
    tasks: rows("#tasks g[data-task]").map((g) => ({
      id: Number(g.getAttribute("data-task")),
      status: g.getAttribute("data-status"),
      owner: g.getAttribute("data-owner"),
    })).sort((a, b) => a.id - b.id),
    team: rows("#team tr[data-teammate]").map((r) => ({
      name: r.dataset.teammate,
      status: r.dataset.status,
    })),
    todos: rows("#todos li[data-agent]").map((li) => ({
      agent: li.dataset.agent,
      status: li.dataset.status,
    })),
  };
})()`;

function shownOnPage(page: Page): Promise<Shown> {
  return page.evaluate(SHOWN_SCRIPT) as Promise<Shown>;
}

/** Wait until the page shows the state at `seq` (its panels drawn for it). */
async function shownAt(page: Page, seq: number): Promise<void> {
  await page.waitForSelector(`body[data-at="${seq}"]`, { timeout: 10_000 });
}

/** Drag the scrubber to `seq` (its value set as a drag sets it, with the same `input` event). */
async function scrubTo(page: Page, seq: number): Promise<void> {
  await page.evaluate(`(() => {
    const input = document.querySelector("#scrub");
    input.value = "${seq}";
    input.dispatchEvent(new Event("input", { bubbles: true }));
  })()`);
  await shownAt(page, seq);
}

async function atOf(page: Page): Promise<number> {
  return Number(await page.$eval("body", (body) => body.dataset.at));
}

async function checkAt(page: Page, log: string, session: string, seq: number): Promise<void> {
  assert.deepEqual(await shownOnPage(page), await stateAt(log, session, seq), `at seq ${seq}`);
}

async function readEvents(log: string): Promise<Envelope[]> {
  const text = await Deno.readTextFile(log).catch(() => "");
  return text.split("\n").filter((line) => line.endsWith("}")).map((line) => JSON.parse(line));
}

async function waitFor<T>(what: string, found: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const result = await found();
    if (result !== undefined) return result;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every address `page` asks for, and every error its script throws. */
function watch(page: Page): { requests: string[]; errors: string[] } {
  const requests: string[] = [];
  const errors: string[] = [];
  page.on("request", (request) => void requests.push(request.url()));
  page.on("pageerror", (error) => void errors.push(String(error)));
  return { requests, errors };
}

async function golden(browser: Browser): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "rein-view-golden-" });
  const log = join(dir, "events.jsonl");
  await Deno.copyFile(new URL("crash_resume.jsonl", GOLDEN), log);
  const server = await startViewServer({ log });
  const page = await browser.newPage();
  const { requests, errors } = watch(page);
  try {
    const lines = await readEvents(log);
    const sessions = [...new Set(lines.map((e) => e.session))];
    await page.goto(server.url);
    assert.deepEqual(
      await page.$$eval(
        "tr[data-session]",
        (rows) => rows.map((r) => r.getAttribute("data-session")),
      ),
      sessions,
    );
    const id = sessions.at(-1)!;
    const seqs = lines.filter((e) => e.session === id).map((e) => e.seq);
    await Promise.all([page.waitForNavigation(), page.click(`tr[data-session="${id}"] a`)]);
    const end = lines.at(-1)!.seq;
    await shownAt(page, end);
    await checkAt(page, log, id, end);
    // Every event of the session is a row of its lane.
    assert.deepEqual(
      await page.$$eval(
        "#timeline .item",
        (items) => items.map((i) => Number(i.getAttribute("data-seq"))),
      ),
      seqs,
    );
    // A click on the scrubber's track moves it there.
    const box = (await (await page.$("#scrub"))!.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.3, box.y + box.height / 2);
    const clicked = Number(
      await page.evaluate(`document.querySelector("#scrub").value`),
    );
    assert.ok(clicked < end, `the click left the scrubber at ${clicked}`);
    await shownAt(page, clicked);
    await checkAt(page, log, id, clicked);
    // Later rows are greyed.
    const future = await page.$$eval("#timeline .item.future", (items) => items.length);
    assert.equal(future, seqs.filter((s) => s > clicked).length);
    for (const seq of [seqs[1]!, seqs[Math.floor(seqs.length / 2)]!, seqs.at(-3)!]) {
      await scrubTo(page, seq);
      await checkAt(page, log, id, seq);
    }
    // One event on and back, by the buttons and the arrow keys.
    const at = await atOf(page);
    await page.click("#next");
    await shownAt(page, seqs[seqs.indexOf(at) + 1]!);
    await checkAt(page, log, id, await atOf(page));
    await page.keyboard.press("ArrowLeft");
    await shownAt(page, at);
    await page.click("#prev");
    await shownAt(page, seqs[seqs.indexOf(at) - 1]!);
    // Works offline: nothing but the page's own server was asked for anything.
    const origin = `http://127.0.0.1:${server.port}/`;
    assert.deepEqual(requests.filter((url) => !url.startsWith(origin)), []);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const TEAMS = { CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS: "1" };

/** Whether the conversation `messages` holds the result of call `id`. */
function answered(messages: readonly unknown[], id: string): boolean {
  return JSON.stringify(messages).includes(`"tool_use_id":"${id}"`);
}

/**
 * The fake model's script of the team run: who asks decides the answer, and what it has done so
 * far (the results in its conversation; mail may arrive in between) its next step. A teammate's
 * first message is its prompt, with any mail that reached it before its first request after it.
 */
function teamScript(request: RecordedRequest): FakeReply {
  const messages = request.body?.messages ?? [];
  const first = firstUserText(messages);
  const done = (id: string) => answered(messages, id);
  if (first === "Build the site") {
    if (done("s_b")) return message("The team is on it.");
    return message([
      toolUse("c_1", "create_task", { subject: "Schema", description: "Tables", role: "db" }),
      toolUse("c_2", "create_task", {
        subject: "API",
        description: "Routes",
        blockedBy: [1],
        role: "api",
      }),
      toolUse("c_3", "create_task", {
        subject: "UI",
        description: "Pages",
        blockedBy: [1, 2],
        role: "ui",
      }),
      toolUse("s_a", "spawn_teammate", { name: "alice", prompt: "Do the schema", role: "db" }),
      toolUse("s_b", "spawn_teammate", { name: "bob", prompt: "Plan the API", role: "api" }),
    ]);
  }
  if (first.startsWith("Do the schema")) {
    if (!done("a_1")) return message([toolUse("a_1", "claim_task", { task_id: 1 })]);
    if (!done("a_2")) {
      return message([
        toolUse("a_2", "complete_task", { task_id: 1 }),
        toolUse("a_3", "send_message", {
          to: "bob",
          content: "The schema is done",
          summary: "schema",
        }),
      ]);
    }
    return message("Schema done.");
  }
  if (first.startsWith("Plan the API")) {
    if (!done("b_1")) {
      return message([
        toolUse("b_1", "todo_write", {
          todos: [
            { content: "Read the schema", status: "in_progress", activeForm: "Reading the schema" },
            { content: "Write the routes", status: "pending", activeForm: "Writing the routes" },
          ],
        }),
      ]);
    }
    if (!done("b_2")) {
      return message([
        toolUse("b_2", "send_message", { to: "lead", content: "Planned", summary: "plan" }),
      ]);
    }
    return message("API planned.");
  }
  return message("OK.");
}

async function liveTeam(browser: Browser): Promise<void> {
  let openPage: () => void = () => {};
  const opened = new Promise<void>((resolve) => openPage = resolve);
  await using fake = await startFakeAnthropic({
    script: teamScript,
    // The teammates' first requests wait until the page is open: what they do comes live.
    onRequest: async (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      if (first !== "Build the site") await opened;
    },
  });
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-view-team-" }));
  const log = join(path, ".rein", "events.jsonl");
  let server: ViewServer | undefined;
  const page = await browser.newPage();
  const { errors } = watch(page);
  await page.setViewport({ width: 1400, height: 1000 });
  try {
    const env = { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-test", ...TEAMS };
    await using lead = new CliProcess(["-p", "Build the site", "--workspace", path], env);
    const id = await waitFor("the session's start", async () => {
      if (!lead.running) throw new Error(`rein ended early: ${(await lead.output).stderr}`);
      return (await readEvents(log)).find((e) => e.type === "session.started")?.session;
    });
    server = await startViewServer({ log });
    await page.goto(`http://127.0.0.1:${server.port}/session/${id}?t=${server.token}`);
    await page.waitForSelector("body[data-at]");
    await page.waitForSelector('#summary [data-field="live"]::-p-text(live)');
    openPage();
    // Without a reload: the teammates' calls, their mail as arrows, the tasks as they change.
    await page.waitForSelector('#timeline .item[data-agent="alice"][data-type="tool.requested"]', {
      timeout: 30_000,
    });
    await page.waitForSelector('svg.mail line[data-from="alice"][data-to="bob"]', {
      timeout: 30_000,
    });
    await page.waitForSelector('svg.mail line[data-from="bob"][data-to="lead"]', {
      timeout: 30_000,
    });
    await page.waitForSelector(
      '#tasks g[data-task="1"][data-status="completed"][data-owner="alice"]',
      {
        timeout: 30_000,
      },
    );
    await page.waitForSelector('#todos li[data-agent="bob"]', { timeout: 30_000 });
    // Both teammates done: their last answers are in the log.
    await waitFor("both teammates' last answers", async () => {
      const events = await readEvents(log);
      const done = (agent: string) =>
        events.some((e) =>
          e.type === "turn.ended" && e.agent === agent && e.data.reason === "completed"
        );
      return done("alice") && done("bob") ? true : undefined;
    });
    const events = await readEvents(log);
    const end = events.at(-1)!.seq;
    await page.waitForFunction(`Number(document.body.dataset.at) >= ${end}`, {
      timeout: 10_000,
    });
    if (Deno.env.get("REIN_SCREENSHOTS") === "1") {
      await Deno.mkdir(DOCS, { recursive: true });
      await (await page.$("#timeline-panel"))!.screenshot({
        path: new URL("view-timeline.png", DOCS).pathname,
      });
      await (await page.$("#tasks"))!.screenshot({
        path: new URL("view-tasks.png", DOCS).pathname,
      });
      await page.screenshot({ path: new URL("view-page.png", DOCS).pathname, fullPage: true });
    }
    // Five points of the run, each as rein state --at folds it.
    const mine = events.filter((e) => e.session === id).map((e) => e.seq);
    const spawned = events.find((e) => e.type === "agent.spawned" && e.agent === "bob")!.seq;
    const mailed = events.find((e) => e.type === "mail.sent")!.seq;
    const claimed = events.find((e) => e.type === "task.claimed")!.seq;
    for (const seq of [mine[3]!, spawned, claimed, mailed, end]) {
      await scrubTo(page, seq);
      await checkAt(page, log, id, seq);
    }
    assert.deepEqual((await shownOnPage(page)).agents.map((a) => a.name), ["lead", "alice", "bob"]);
    assert.deepEqual(
      await page.$$eval("#timeline .lane-name", (lanes) => lanes.map((l) => l.textContent)),
      ["lead", "alice", "bob"],
    );
    assert.deepEqual(errors, []);
  } catch (error) {
    const events = await readEvents(log);
    const lines = events.map((e) =>
      `${e.seq} ${e.agent} ${e.type} ${e.type === "tool.completed" ? e.data.content : ""}`
    );
    throw new Error(`${error}\nThe log:\n${lines.join("\n")}`, { cause: error });
  } finally {
    await page.close();
    await server?.close();
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true }).catch(() => {});
  }
}

Deno.test({
  name:
    "rein view in Chromium: a golden session and a live team run, checked against rein state --at",
  ignore: CHROMIUM === undefined,
  sanitizeOps: false,
  sanitizeResources: false,
}, async (t) => {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM!,
    args: ["--no-sandbox", "--headless=new", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  try {
    await t.step(
      "the golden crash_resume log: sessions list, panels, scrubber clicks, drags and steps",
      () => golden(browser),
    );
    await t.step(
      "a live team run: calls, mail and tasks appear as they happen; five seqs match",
      () => liveTeam(browser),
    );
  } finally {
    await browser.close();
  }
});
