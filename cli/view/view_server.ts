import { openLogReader } from "../../events/jsonl_reader.ts";
import { readLog } from "../../events/read_log.ts";
import { foldCatalog } from "../../core/snapshots/mod.ts";
import { indexPoint } from "../../core/snapshots/log_point.ts";
import type { CatalogEntry } from "../../core/state/catalog.ts";
import type { Envelope } from "../../events/event_types.ts";
import { reinCatalogProjections } from "../../core/harness.ts";
import { sessionPage, sessionsPage } from "./pages.ts";
import { sessionPanels } from "./panels.ts";
import { SessionStates } from "./session_states.ts";
import { spilledOutput } from "./spilled_output.ts";
import { timelineItem } from "./timeline_item.ts";
import { timelinePage } from "./timeline_page.ts";
import PAGE_SCRIPT from "./page.js" with { type: "text" };
import PAGE_STYLE from "./page.css" with { type: "text" };

/** How {@link startViewServer} serves a log. */
export interface ViewServerOptions {
  /** The event log shown. */
  log: string;
  /** Port on 127.0.0.1; default 0 (a free one). */
  port?: number;
  /** The token every request must carry (`?t=`); default 16 random bytes, in hex. */
  token?: string;
  /** Receives the reader's one-line notices (an unterminated last line). */
  onNotice?: (message: string) => void;
  /** What the pages call the log (default: `log`): a database's log copied to `log`. */
  name?: string;
  /**
   * The log's events from a seq on, as they are appended, for the live stream (default: a
   * read-only follower of the file `log`); a database's log: its copy as NOTIFY grows it.
   */
  follow?: (fromSeq: number, signal: AbortSignal) => AsyncIterable<Envelope>;
}

/** A running `rein view` server. */
export interface ViewServer {
  /** The sessions list's address, token included. */
  url: string;
  port: number;
  token: string;
  /** Stop serving (live pages' streams end). */
  close(): Promise<void>;
  /** Resolves once the server has stopped. */
  finished: Promise<void>;
}

/** Rows of the timeline a page asks for at once, and the page a session opens with. */
const PAGE_ROWS = 200;

/**
 * Serve the page of the log `options.log` on 127.0.0.1: the sessions list, each session's page
 * (timeline, agents, team, tasks, todos, cost and context, a seq scrubber) and their JSON, the
 * spilled outputs of the log's `outputs` folder (`/output/<name>`), and a live stream of what is appended (server-sent events from a read-only follower). Every request
 * without the token gets 403. Reads the log and its snapshots; never writes.
 */
export function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const token = options.token ?? randomToken();
  const path = options.log;
  const states = new Map<string, SessionStates>();
  const stop = new AbortController();
  const catalogProjections = reinCatalogProjections();
  const notice = options.onNotice ?? (() => {});
  const follow = options.follow ??
    ((from: number, signal: AbortSignal) => openLogReader(path).followLog(from, signal));

  /**
   * Start the background pass of a session's states (its checkpoints, seqs and cost series) when
   * the page first asks for them (its chart, a scrub back), not when it opens.
   */
  const passOf = (session: SessionStates) =>
    void session.build().catch((error) =>
      notice(error instanceof Error ? error.message : String(error))
    );
  const catalogNow = () => foldCatalog(path, { onNotice: notice, catalogProjections });
  const statesOf = async (id: string) => {
    const known = states.get(id);
    if (known !== undefined) return { states: known, ...(await catalogNow()) };
    const fold = await catalogNow();
    const entry = fold.catalog.byId[id];
    if (entry === undefined) return undefined;
    const made = new SessionStates(path, id, entry.firstSeq, [...fold.index]);
    states.set(id, made);
    return { states: made, ...fold };
  };

  const routes: Array<
    [RegExp, (match: string[], url: URL, gone: AbortSignal) => Promise<Response>]
  > = [
    [/^\/$/, async () => {
      const { catalog } = await foldCatalog(path, { onNotice: notice });
      const entries = catalog.order.flatMap((id) => catalog.byId[id] ?? []);
      return html(sessionsPage(options.name ?? path, entries, token));
    }],
    [/^\/page\.js$/, () => Promise.resolve(text(PAGE_SCRIPT, "text/javascript"))],
    [/^\/page\.css$/, () => Promise.resolve(text(PAGE_STYLE, "text/css"))],
    [/^\/output\/([^/]+)$/, ([, name]) => spilledOutput(path, name!)],
    [/^\/session\/([^/]+)$/, async ([, id]) => {
      const found = await statesOf(id!);
      if (found === undefined) return notFound(`No session "${id}" in the log`);
      const { states: session, catalog, lastSeq } = found;
      const entry = catalog.byId[id!] as CatalogEntry;
      const panels = await session.at(lastSeq, (state) => sessionPanels(state, id!, lastSeq));
      const from = Math.max(entry.firstSeq, lastSeq - PAGE_ROWS * 2);
      const page = await timelinePage(path, id!, found.index, from, PAGE_ROWS * 2);
      return html(sessionPage(entry, {
        session: id!,
        token,
        firstSeq: entry.firstSeq,
        lastSeq,
        panels,
        items: page.items,
        from,
        next: page.next,
      }, options.name ?? path));
    }],
    [/^\/api\/session\/([^/]+)\/state$/, async ([, id], url) => {
      const found = await statesOf(id!);
      if (found === undefined) return notFound(`No session "${id}" in the log`);
      const asked = intParam(url, "at") ?? found.lastSeq;
      const step = intParam(url, "step") ?? 0;
      const at = Math.min(found.lastSeq, stepped(found.states, asked, step));
      if (at < found.lastSeq) passOf(found.states);
      return jsonResponse(await found.states.at(at, (state) => sessionPanels(state, id!, at)));
    }],
    [/^\/api\/session\/([^/]+)\/events$/, async ([, id], url) => {
      const found = await statesOf(id!);
      if (found === undefined) return notFound(`No session "${id}" in the log`);
      const limit = Math.min(1_000, intParam(url, "limit") ?? PAGE_ROWS);
      const around = intParam(url, "around");
      let from = intParam(url, "from") ?? found.states.firstSeq;
      if (around !== undefined) from = pageStart(found.states, around, limit);
      return jsonResponse({ from, ...await timelinePage(path, id!, found.index, from, limit) });
    }],
    [/^\/api\/session\/([^/]+)\/event\/(\d+)$/, async ([, id, seq]) => {
      const found = await statesOf(id!);
      if (found === undefined) return notFound(`No session "${id}" in the log`);
      const start = await indexPoint(path, found.index, Number(seq) - 1);
      const read = { upTo: Number(seq), sessions: [id!], ...(start ? { start } : {}) };
      for await (const event of readLog(path, read)) {
        if (event.seq === Number(seq)) return jsonResponse(event);
      }
      return notFound(`No event ${seq} of session "${id}"`);
    }],
    [/^\/api\/session\/([^/]+)\/series$/, async ([, id]) => {
      const found = await statesOf(id!);
      if (found === undefined) return notFound(`No session "${id}" in the log`);
      passOf(found.states);
      return jsonResponse({
        ready: found.states.ready,
        series: found.states.series(),
        byModel: found.states.seriesByModel(),
      });
    }],
    [
      /^\/api\/session\/([^/]+)\/live$/,
      (match, url, gone) =>
        Promise.resolve(
          liveStream(follow, match[1]!, intParam(url, "from") ?? 1, gone, stop.signal),
        ),
    ],
  ];

  const handler = async (request: Request, info: Deno.ServeHandlerInfo): Promise<Response> => {
    const url = new URL(request.url);
    if (url.searchParams.get("t") !== token) return new Response("Forbidden\n", { status: 403 });
    if (request.method !== "GET") return new Response("Method not allowed\n", { status: 405 });
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      return notFound(`No page "${url.pathname}"`);
    }
    for (const [pattern, route] of routes) {
      const match = pattern.exec(pathname);
      if (match === null) continue;
      try {
        // Aborted once the response is delivered or the page goes: what ends a live stream.
        const gone = new AbortController();
        info.completed.finally(() => gone.abort());
        return await route([...match], url, gone.signal);
      } catch (error) {
        return new Response(`${error instanceof Error ? error.message : String(error)}\n`, {
          status: 500,
        });
      }
    }
    return notFound(`No page "${pathname}"`);
  };

  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: options.port ?? 0,
      signal: stop.signal,
      onListen: () => {},
    }, handler);
    const port = server.addr.port;
    resolve({
      url: `http://127.0.0.1:${port}/?t=${token}`,
      port,
      token,
      finished: server.finished,
      async close() {
        stop.abort();
        for (const session of states.values()) session.close();
        await server.finished;
      },
    });
  });
}

/**
 * A server-sent event stream of session `id`'s events from seq `from` on, as they are appended
 * (`item`: a timeline row), and of the log's last seq (`end`), until the page goes or the server
 * stops.
 */
function liveStream(
  follow: (fromSeq: number, signal: AbortSignal) => AsyncIterable<Envelope>,
  id: string,
  from: number,
  gone: AbortSignal,
  stopped: AbortSignal,
): Response {
  const signal = AbortSignal.any([gone, stopped]);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: string, data: unknown) =>
        controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
      let end: number | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const flushEnd = () => {
        timer = undefined;
        if (end !== undefined && !signal.aborted) send("end", end);
      };
      send("hello", from);
      try {
        const asked = new Map<string, number>();
        for await (const event of follow(from, signal)) {
          if (event.session === id) {
            const item = timelineItem(event);
            if (event.type === "model.requested") asked.set(event.agent, Date.parse(event.ts));
            const at = event.type === "model.responded" ? asked.get(event.agent) : undefined;
            if (at !== undefined) item.latencyMs = Date.parse(event.ts) - at;
            send("item", item);
          }
          end = event.seq;
          timer ??= setTimeout(flushEnd, 100);
        }
      } catch (error) {
        if (!signal.aborted) send("failed", error instanceof Error ? error.message : String(error));
      } finally {
        if (timer !== undefined) clearTimeout(timer);
        try {
          controller.close();
        } catch {
          // The page went first.
        }
      }
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-store" },
  });
}

/** The seq one event of the session before or after `seq` (`step` -1 or 1), or `seq`. */
function stepped(states: SessionStates, seq: number, step: number): number {
  if (step === 0) return seq;
  const seqs = states.seqs;
  if (step > 0) return seqs.find((s) => s > seq) ?? seq;
  return seqs.findLast((s) => s < seq) ?? seq;
}

/** Where a page of `limit` rows holding `seq` about its middle starts. */
function pageStart(states: SessionStates, seq: number, limit: number): number {
  const seqs = states.seqs;
  const i = seqs.findIndex((s) => s >= seq);
  if (i === -1) return Math.max(states.firstSeq, seq - limit);
  return seqs[Math.max(0, i - Math.floor(limit / 2))] ?? states.firstSeq;
}

function intParam(url: URL, name: string): number | undefined {
  const value = url.searchParams.get(name);
  if (value === null || !/^-?\d+$/.test(value)) return undefined;
  return Number(value);
}

function randomToken(): string {
  return Array.from(
    crypto.getRandomValues(new Uint8Array(16)),
    (b) => b.toString(16).padStart(2, "0"),
  )
    .join("");
}

const NO_STORE = { "cache-control": "no-store", "x-content-type-options": "nosniff" };

function html(body: string): Response {
  return text(body, "text/html; charset=utf-8");
}

function text(body: string, type: string): Response {
  return new Response(body, { headers: { "content-type": type, ...NO_STORE } });
}

function jsonResponse(value: unknown): Response {
  return text(JSON.stringify(value), "application/json");
}

function notFound(message: string): Response {
  return new Response(`${message}\n`, { status: 404 });
}
