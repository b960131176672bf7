// rein view: the script of a session's page. Plain browser JavaScript, no build step, no network
// beyond the page's own server. It draws the panels from the server's JSON (the fold of the log
// at a seq), moves the scrubber, pages the timeline and follows the log live.
"use strict";

const boot = JSON.parse(document.getElementById("boot").textContent);
const base = `/api/session/${encodeURIComponent(boot.session)}`;
const SVG = "http://www.w3.org/2000/svg";
/** Details longer than this (or of several lines) start collapsed. */
const COLLAPSE = 100;

const view = {
  end: boot.lastSeq,
  at: boot.lastSeq,
  following: true,
  /** Timeline rows by seq, of the window shown. */
  items: new Map(boot.items.map((item) => [item.seq, item])),
  from: boot.from,
  next: boot.next,
  lanes: [],
  series: {},
  /** Series per agent and model (`agent · model`), for agents that used more than one model. */
  byModel: {},
  panels: boot.panels,
  asking: 0,
};

function api(path, params = {}) {
  const query = new URLSearchParams({ ...params, t: boot.token });
  return fetch(`${base}${path}?${query}`).then((r) => {
    if (!r.ok) throw new Error(`${r.status} ${path}`);
    return r.json();
  });
}

function el(tag, attrs = {}, ...children) {
  const node = tag.startsWith("svg:")
    ? document.createElementNS(SVG, tag.slice(4))
    : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  for (const child of children) {
    if (child !== undefined && child !== null) {
      node.append(typeof child === "string" || typeof child === "number" ? String(child) : child);
    }
  }
  return node;
}

function cost(dollars) {
  if (dollars === 0) return "$0.00";
  return dollars >= 0.01 ? `$${dollars.toFixed(2)}` : `$${dollars.toPrecision(2)}`;
}

// ---- lanes and timeline ----

function lanesOf(panels) {
  const names = panels ? panels.agents.map((a) => a.name) : [];
  for (const item of view.items.values()) if (!names.includes(item.agent)) names.push(item.agent);
  return names;
}

function itemNode(item) {
  const row = el("div", {
    class: `item kind-${item.kind}${item.seq > view.at ? " future" : ""}`,
    "data-seq": item.seq,
    "data-agent": item.agent,
    "data-type": item.type,
  });
  const head = el(
    "div",
    { class: "head" },
    el("span", { class: "seq" }, item.seq),
    " ",
    item.title,
  );
  if (item.tokens) {
    head.append(
      el(
        "span",
        { class: "tokens" },
        ` ${item.tokens.input} in · ${item.tokens.output} out` +
          (item.tokens.cacheRead ? ` · ${item.tokens.cacheRead} cached` : "") +
          (item.latencyMs !== undefined ? ` · ${item.latencyMs} ms` : ""),
      ),
    );
  }
  row.append(head);
  if (item.detail) {
    const long = item.detail.length > COLLAPSE || item.detail.includes("\n") ||
      item.fullSize !== undefined;
    const pre = el("pre", {}, item.detail);
    if (!long) {
      row.append(pre);
    } else {
      const details = el(
        "details",
        {},
        el("summary", {}, `${item.fullSize ?? item.detail.length} chars`),
        pre,
      );
      if (item.fullSize !== undefined) {
        const more = el("button", { class: "more" }, "show all");
        more.addEventListener("click", async () => {
          const event = await api(`/event/${item.seq}`);
          pre.textContent = JSON.stringify(event.data, null, 2);
          more.remove();
        });
        details.append(more);
      }
      row.append(details);
    }
  }
  for (const name of item.outputs ?? []) {
    const query = new URLSearchParams({ t: boot.token });
    row.append(
      el(
        "a",
        {
          class: "output",
          href: `/output/${encodeURIComponent(name)}?${query}`,
          target: "_blank",
          rel: "noopener",
        },
        `spilled output ${name}`,
      ),
    );
  }
  return row;
}

function renderTimeline() {
  const box = document.getElementById("timeline");
  view.lanes = lanesOf(view.panels);
  const lanes = view.lanes;
  box.replaceChildren();
  box.style.setProperty("--lanes", String(Math.max(1, lanes.length)));
  const header = el("div", { class: "lanes" });
  lanes.forEach((name, i) => {
    header.append(
      el("div", { class: "lane-name", style: `grid-column:${i + 1}`, "data-lane": name }, name),
    );
  });
  box.append(header);
  const rows = el("div", { class: "rows" });
  const sorted = [...view.items.values()].sort((a, b) => a.seq - b.seq);
  for (const item of sorted) {
    const node = itemNode(item);
    node.style.gridColumn = String(lanes.indexOf(item.agent) + 1);
    rows.append(node);
  }
  box.append(rows);
  document.getElementById("earlier").disabled = view.from <= boot.firstSeq;
  document.getElementById("later").disabled = view.next === null;
  requestAnimationFrame(drawMail);
}

/** Mail as arrows from the sender's lane to each recipient's, at the row of the send. */
function drawMail() {
  const box = document.getElementById("timeline");
  box.querySelector("svg.mail")?.remove();
  const mails = box.querySelectorAll(".item.kind-mail");
  if (mails.length === 0) return;
  const frame = box.getBoundingClientRect();
  const svg = el("svg:svg", { class: "mail", width: box.scrollWidth, height: box.scrollHeight });
  svg.append(
    el(
      "svg:defs",
      {},
      el(
        "svg:marker",
        {
          id: "arrow",
          viewBox: "0 0 10 10",
          refX: 9,
          refY: 5,
          markerWidth: 7,
          markerHeight: 7,
          orient: "auto",
        },
        el("svg:path", { d: "M0,0 L10,5 L0,10 z", fill: "#b4538f" }),
      ),
    ),
  );
  const laneX = (name) => {
    const head = box.querySelector(`.lane-name[data-lane="${CSS.escape(name)}"]`);
    if (!head) return undefined;
    const r = head.getBoundingClientRect();
    return r.left - frame.left + r.width / 2;
  };
  for (const node of mails) {
    const item = view.items.get(Number(node.dataset.seq));
    const r = node.getBoundingClientRect();
    const y = r.top - frame.top + box.scrollTop + 10;
    const x1 = laneX(item.agent);
    for (const to of item.to ?? []) {
      const x2 = laneX(to);
      if (x1 === undefined || x2 === undefined) continue;
      svg.append(
        el("svg:line", {
          x1,
          y1: y,
          x2,
          y2: y + 14,
          class: "mail-arrow",
          "data-from": item.agent,
          "data-to": to,
          "marker-end": "url(#arrow)",
        }),
      );
    }
  }
  box.append(svg);
}

function markFuture() {
  for (const node of document.querySelectorAll("#timeline .item")) {
    node.classList.toggle("future", Number(node.dataset.seq) > view.at);
  }
  const current = [...document.querySelectorAll("#timeline .item")]
    .filter((n) => Number(n.dataset.seq) <= view.at).at(-1);
  document.querySelector("#timeline .item.current")?.classList.remove("current");
  current?.classList.add("current");
}

async function loadAround(seq) {
  const page = await api("/events", { around: seq, limit: 200 });
  view.items = new Map(page.items.map((item) => [item.seq, item]));
  view.from = page.from;
  view.next = page.next;
  renderTimeline();
  markFuture();
}

function inWindow(seq) {
  return seq >= view.from && (view.next === null || seq < view.next);
}

// ---- panels ----

function renderAgents(panels) {
  const table = document.getElementById("agents");
  table.replaceChildren(
    el(
      "tr",
      {},
      ...["agent", "kind", "status", "model", "rounds", "context", "tokens in/out", "cost", "cwd"]
        .map((h) => el("th", {}, h)),
    ),
  );
  for (const a of panels.agents) {
    table.append(
      el(
        "tr",
        {
          "data-agent": a.name,
          "data-status": a.status,
          "data-rounds": a.rounds,
          "data-input-tokens": a.usage.input_tokens,
          "data-output-tokens": a.usage.output_tokens,
        },
        el("td", {}, a.name),
        el("td", {}, a.kind + (a.role ? ` (${a.role})` : "")),
        el("td", { class: `status-${a.status}` }, a.status),
        el("td", {}, a.model),
        el("td", { class: "num" }, a.rounds),
        el("td", { class: "num" }, a.contextTokens),
        el("td", { class: "num" }, `${a.usage.input_tokens}/${a.usage.output_tokens}`),
        el("td", { class: "num" }, cost(a.costUsd)),
        el("td", {}, a.cwd ?? "."),
      ),
    );
  }
}

function renderTeam(panels) {
  const table = document.getElementById("team");
  if (panels.team.length === 0) {
    table.replaceChildren(el("tr", {}, el("td", { class: "none" }, "no teammates")));
    return;
  }
  table.replaceChildren(
    el(
      "tr",
      {},
      ...["name", "role", "status", "model", "turns", "cost", "cwd", "last"].map((h) =>
        el("th", {}, h)
      ),
    ),
  );
  for (const m of panels.team) {
    table.append(
      el(
        "tr",
        { "data-teammate": m.name, "data-status": m.status },
        el("td", {}, m.name),
        el("td", {}, m.role ?? ""),
        el("td", { class: `status-${m.status}` }, m.status),
        el("td", {}, m.model),
        el("td", { class: "num" }, m.turns),
        el("td", { class: "num" }, cost(m.costUsd)),
        el("td", {}, m.cwd ?? "."),
        el("td", {}, m.lastAction ?? ""),
      ),
    );
  }
}

/** The task graph as a DAG: columns by the longest chain of blockers, edges blocker → blocked. */
function renderTasks(panels) {
  const box = document.getElementById("tasks");
  const tasks = panels.tasks;
  if (tasks.length === 0) {
    box.replaceChildren(el("p", { class: "none" }, "no tasks"));
    return;
  }
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const depth = new Map();
  const depthOf = (t, seen = new Set()) => {
    if (depth.has(t.id)) return depth.get(t.id);
    if (seen.has(t.id)) return 0;
    seen.add(t.id);
    const d =
      Math.max(-1, ...t.blockedBy.map((b) => byId.has(b) ? depthOf(byId.get(b), seen) : -1)) + 1;
    depth.set(t.id, d);
    return d;
  };
  tasks.forEach((t) => depthOf(t));
  const columns = [];
  for (const t of tasks) (columns[depth.get(t.id)] ??= []).push(t);
  const W = 190, H = 52, GX = 50, GY = 14;
  const place = new Map();
  columns.forEach((col, x) =>
    col.forEach((t, y) => place.set(t.id, { x: 8 + x * (W + GX), y: 8 + y * (H + GY) }))
  );
  const width = 16 + columns.length * (W + GX) - GX;
  const height = 16 + Math.max(...columns.map((c) => c.length)) * (H + GY) - GY;
  const svg = el("svg:svg", { class: "dag", width, height, viewBox: `0 0 ${width} ${height}` });
  svg.append(
    el(
      "svg:defs",
      {},
      el(
        "svg:marker",
        {
          id: "dep",
          viewBox: "0 0 10 10",
          refX: 9,
          refY: 5,
          markerWidth: 6,
          markerHeight: 6,
          orient: "auto",
        },
        el("svg:path", { d: "M0,0 L10,5 L0,10 z", fill: "#888" }),
      ),
    ),
  );
  for (const t of tasks) {
    for (const b of t.blockedBy) {
      const from = place.get(b), to = place.get(t.id);
      if (!from || !to) continue;
      svg.append(
        el("svg:path", {
          class: "edge",
          "data-from": b,
          "data-to": t.id,
          d: `M${from.x + W},${from.y + H / 2} C${from.x + W + GX / 2},${from.y + H / 2} ${
            to.x - GX / 2
          },${to.y + H / 2} ${to.x},${to.y + H / 2}`,
          "marker-end": "url(#dep)",
        }),
      );
    }
  }
  for (const t of tasks) {
    const p = place.get(t.id);
    const open = t.blockedBy.filter((b) => byId.get(b)?.status !== "completed");
    const g = el("svg:g", {
      class: `task status-${t.status}${open.length && t.status === "pending" ? " blocked" : ""}`,
      "data-task": t.id,
      "data-status": t.status,
      "data-owner": t.owner ?? "",
      transform: `translate(${p.x},${p.y})`,
    });
    g.append(
      el("svg:rect", { width: W, height: H, rx: 6 }),
      el("svg:text", { x: 8, y: 17, class: "subject" }, `#${t.id} ${t.subject.slice(0, 24)}`),
      el("svg:text", { x: 8, y: 33 }, `${t.status}${t.owner ? ` · ${t.owner}` : ""}`),
      el(
        "svg:text",
        { x: 8, y: 47, class: "minor" },
        (open.length ? `waits for ${open.map((b) => `#${b}`).join(" ")}` : "") +
          (t.worktree ? ` ⎇ ${t.worktree}` : ""),
      ),
      el("svg:title", {}, `#${t.id} ${t.subject}`),
    );
    svg.append(g);
  }
  box.replaceChildren(svg);
}

function renderTodos(panels) {
  const box = document.getElementById("todos");
  const agents = Object.entries(panels.todos).filter(([, list]) => list.length > 0);
  if (agents.length === 0) {
    box.replaceChildren(el("p", { class: "none" }, "no todos"));
    return;
  }
  box.replaceChildren(
    ...agents.map(([agent, list]) =>
      el(
        "div",
        { class: "todos", "data-agent": agent },
        el("h3", {}, agent),
        el(
          "ul",
          {},
          ...list.map((t) =>
            el(
              "li",
              { class: `todo-${t.status}`, "data-agent": agent, "data-status": t.status },
              `${
                t.status === "completed" ? "☒" : t.status === "in_progress" ? "◐" : "☐"
              } ${t.content}`,
            )
          ),
        ),
      )
    ),
  );
}

const COLORS = ["#3b6fb6", "#c2611f", "#2f8f5b", "#b4538f", "#7a5cc2", "#8d7a1d", "#1f8b99"];

/** The chart's lines: each agent's, then, for an agent that used several models, one per model. */
function chartLines() {
  const lines = [];
  for (const [agent, points] of Object.entries(view.series)) {
    lines.push({ name: agent, agent, points });
    const models = Object.entries(view.byModel).filter(([, ps]) => ps[0]?.agent === agent);
    if (models.length < 2) continue;
    for (const [name, ps] of models) lines.push({ name, agent, model: ps[0].model, points: ps });
  }
  return lines;
}

/**
 * Cost and context per agent over the session's seqs, and per agent and model where an agent
 * used several, with the scrubber's seq marked.
 */
function renderChart() {
  const box = document.getElementById("chart");
  const lines = chartLines();
  if (lines.length === 0) {
    box.replaceChildren(el("p", { class: "none" }, "no model answers yet"));
    return;
  }
  const W = 360, H = 90;
  const charts = [["costUsd", "cost ($)"], ["contextTokens", "context (tokens)"]].map(
    ([field, label]) => {
      const points = lines.flatMap((line) => line.points);
      const top = Math.max(0, ...points.map((p) => p[field]));
      const max = Math.max(1e-9, top);
      const x = (seq) =>
        4 + (W - 8) * (seq - boot.firstSeq) / Math.max(1, view.end - boot.firstSeq);
      const y = (v) => H - 4 - (H - 18) * v / max;
      const svg = el("svg:svg", { class: "chart", width: W, height: H, "data-field": field });
      svg.append(
        el(
          "svg:text",
          { x: 4, y: 11, class: "minor" },
          `${label}, max ${field === "costUsd" ? cost(top) : top}`,
        ),
      );
      lines.forEach((line, i) => {
        svg.append(
          el("svg:polyline", {
            points: line.points.map((p) => `${x(p.seq).toFixed(1)},${y(p[field]).toFixed(1)}`)
              .join(" "),
            stroke: COLORS[i % COLORS.length],
            "stroke-dasharray": line.model === undefined ? undefined : "4 2",
            "data-agent": line.agent,
            "data-model": line.model,
            "data-series": line.name,
          }),
        );
      });
      svg.append(el("svg:line", { x1: x(view.at), x2: x(view.at), y1: 12, y2: H, class: "at" }));
      return svg;
    },
  );
  const legend = el(
    "div",
    { class: "legend" },
    ...lines.map((line, i) =>
      el("span", { style: `color:${COLORS[i % COLORS.length]}` }, `■ ${line.name} `)
    ),
  );
  box.replaceChildren(...charts, legend);
}

function renderPanels(panels) {
  if (!panels) return;
  view.panels = panels;
  renderAgents(panels);
  renderTeam(panels);
  renderTasks(panels);
  renderTodos(panels);
  document.querySelector('#summary [data-field="status"]').textContent = panels.status;
  document.querySelector('#summary [data-field="cost"]').textContent = cost(panels.costUsd);
  const lanes = lanesOf(panels);
  if (lanes.join() !== view.lanes.join()) renderTimeline();
  document.body.dataset.at = String(panels.at);
}

// ---- scrubber ----

const scrub = document.getElementById("scrub");
const seqOut = document.getElementById("seq");
const follow = document.getElementById("follow");

/** Show the state at `seq` (one event on or back with `step`); `user`: the person moved it. */
async function showAt(seq, step = 0, user = true) {
  const ask = ++view.asking;
  const panels = await api("/state", step ? { at: seq, step } : { at: seq });
  if (ask !== view.asking || !panels) return;
  view.at = panels.at;
  scrub.value = String(view.at);
  seqOut.textContent = String(view.at);
  if (user) {
    view.following = view.at >= view.end;
    follow.checked = view.following;
  }
  renderPanels(panels);
  if (!inWindow(view.at)) await loadAround(view.at);
  else markFuture();
  renderChart();
  document.querySelector("#timeline .item.current")?.scrollIntoView({ block: "nearest" });
}

let scrubTimer;
scrub.addEventListener("input", () => {
  seqOut.textContent = scrub.value;
  clearTimeout(scrubTimer);
  scrubTimer = setTimeout(() => showAt(Number(scrub.value)), 60);
});
document.getElementById("prev").addEventListener("click", () => showAt(view.at, -1));
document.getElementById("next").addEventListener("click", () => showAt(view.at, 1));
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement && e.target.type !== "range") return;
  if (e.key === "ArrowLeft") {
    e.preventDefault();
    showAt(view.at, -1);
  } else if (e.key === "ArrowRight") {
    e.preventDefault();
    showAt(view.at, 1);
  }
});
follow.addEventListener("change", () => {
  view.following = follow.checked;
  if (view.following) showAt(view.end);
});
document.getElementById("earlier").addEventListener("click", async () => {
  const page = await api("/events", { around: view.from, limit: 200 });
  for (const item of page.items) view.items.set(item.seq, item);
  view.from = Math.min(view.from, page.from);
  renderTimeline();
  markFuture();
});
document.getElementById("later").addEventListener("click", async () => {
  if (view.next === null) return;
  const page = await api("/events", { from: view.next, limit: 200 });
  for (const item of page.items) view.items.set(item.seq, item);
  view.next = page.next;
  renderTimeline();
  markFuture();
});

// ---- cost series and live ----

async function loadSeries() {
  const got = await api("/series");
  view.series = got.series;
  view.byModel = got.byModel ?? {};
  renderChart();
  if (!got.ready) setTimeout(loadSeries, 500);
}

let refreshTimer;
function live() {
  const query = new URLSearchParams({ from: String(boot.lastSeq + 1), t: boot.token });
  const source = new EventSource(`${base}/live?${query}`);
  const status = document.querySelector('#summary [data-field="live"]');
  source.addEventListener("hello", () => status.textContent = "live");
  source.addEventListener("item", (message) => {
    const item = JSON.parse(message.data);
    if (view.next === null) {
      view.items.set(item.seq, item);
      const rows = document.querySelector("#timeline .rows");
      if (!view.lanes.includes(item.agent) || item.kind === "mail") {
        renderTimeline();
      } else if (rows) {
        const node = itemNode(item);
        node.style.gridColumn = String(view.lanes.indexOf(item.agent) + 1);
        rows.append(node);
      }
    }
  });
  source.addEventListener("end", (message) => {
    view.end = Number(JSON.parse(message.data));
    scrub.max = String(view.end);
    document.getElementById("end").textContent = String(view.end);
    if (view.following) {
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => {
        showAt(view.end, 0, false);
        loadSeries();
      }, 150);
    }
  });
  source.addEventListener(
    "failed",
    (message) => status.textContent = `stopped: ${JSON.parse(message.data)}`,
  );
  source.onerror = () => status.textContent = "disconnected";
}

renderTimeline();
renderPanels(boot.panels);
markFuture();
loadSeries();
live();
