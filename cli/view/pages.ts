import type { CatalogEntry } from "../../core/state/catalog.ts";
import { formatCost, totalCost } from "../../core/models/cost.ts";

/** `text` safe inside HTML text and attribute values. Pure. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `value` as JSON safe inside a `<script type="application/json">`. Pure. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, "\\u003c");
}

function layout(title: string, token: string, body: string): string {
  const t = encodeURIComponent(token);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="/page.css?t=${t}">
</head><body>
${body}
</body></html>
`;
}

/**
 * The sessions list: what `rein sessions` prints (started, turns, cost, status, first prompt),
 * each linked to its page. Pure.
 */
export function sessionsPage(
  path: string,
  entries: readonly CatalogEntry[],
  token: string,
): string {
  const t = encodeURIComponent(token);
  const rows = entries.map((entry) => {
    const prompt = (entry.firstPrompt ?? "").replace(/\s+/g, " ");
    return `<tr data-session="${escapeHtml(entry.id)}">
<td><a href="/session/${encodeURIComponent(entry.id)}?t=${t}">${escapeHtml(entry.id)}</a></td>
<td>${escapeHtml(entry.startedAt.slice(0, 19).replace("T", " "))}</td>
<td class="num">${entry.rounds}</td>
<td class="num">${escapeHtml(formatCost(totalCost(entry.usageByModel)))}</td>
<td>${escapeHtml(entry.status)}</td>
<td>${escapeHtml(prompt.length > 80 ? `${prompt.slice(0, 79)}…` : prompt)}</td></tr>`;
  }).join("\n");
  const table = entries.length === 0
    ? `<p>No sessions in ${escapeHtml(path)}</p>`
    : `<table class="sessions"><thead><tr><th>Session</th><th>Started</th><th>Turns</th>
<th>Cost</th><th>Status</th><th>First prompt</th></tr></thead><tbody>
${rows}
</tbody></table>`;
  return layout(
    "rein sessions",
    token,
    `<header><h1>rein</h1><span class="log">${escapeHtml(path)}</span></header>
<main>${table}</main>`,
  );
}

/** What a session's page starts with, embedded in it so that it opens in one request. */
export interface SessionBoot {
  session: string;
  token: string;
  firstSeq: number;
  /** The log's last seq when the page was made: where the scrubber starts. */
  lastSeq: number;
  /** The panels at `lastSeq` and the timeline's last rows. */
  panels: unknown;
  items: unknown[];
  /** The seq the timeline's rows start from, and the seq of the next page (null: none). */
  from: number;
  next: number | null;
}

/**
 * A session's page: its header from the catalog, the panels' frames, and the data they start
 * with; the page's script draws them. Pure.
 */
export function sessionPage(entry: CatalogEntry, boot: SessionBoot, path: string): string {
  const t = encodeURIComponent(boot.token);
  return layout(
    `rein ${entry.id.slice(0, 8)}`,
    boot.token,
    `<header><h1><a href="/?t=${t}">rein</a> · session <code>${escapeHtml(entry.id)}</code></h1>
<span class="log">${escapeHtml(path)}</span>
<div id="summary">started ${escapeHtml(entry.startedAt.slice(0, 19).replace("T", " "))} · ${
      escapeHtml(entry.model)
    } · <span data-field="status"></span> · <span data-field="cost"></span> · <span data-field="live"></span></div>
</header>
<section id="scrubber">
<button id="prev" title="one event back (←)">◀</button>
<input id="scrub" type="range" min="${boot.firstSeq}" max="${boot.lastSeq}" value="${boot.lastSeq}">
<button id="next" title="one event on (→)">▶</button>
<span>seq <output id="seq">${boot.lastSeq}</output> / <span id="end">${boot.lastSeq}</span></span>
<label><input id="follow" type="checkbox" checked> follow the end</label>
</section>
<main class="grid">
<section class="panel" id="timeline-panel"><h2>Timeline</h2>
<button id="earlier">earlier events</button>
<div id="timeline"></div>
<button id="later">later events</button>
</section>
<aside>
<section class="panel"><h2>Agents</h2><table id="agents"></table></section>
<section class="panel"><h2>Team</h2><table id="team"></table></section>
<section class="panel"><h2>Tasks</h2><div id="tasks"></div></section>
<section class="panel"><h2>Todos</h2><div id="todos"></div></section>
<section class="panel"><h2>Cost and context</h2><div id="chart"></div></section>
</aside>
</main>
<script type="application/json" id="boot">${scriptJson(boot)}</script>
<script src="/page.js?t=${t}"></script>`,
  );
}
