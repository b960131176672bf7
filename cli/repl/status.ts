import type { Usage } from "../../events/event_types.ts";
import { contextWindowOf } from "../../core/models/catalogue.ts";
import { formatCost, totalCost } from "../../core/models/cost.ts";
import type { MessagesRequest } from "../../core/effects/model_client.ts";
import type { AgentView } from "../../core/state/sessions.ts";
import type { CompactionConfig } from "../../core/compaction/compaction_config.ts";
import { contextTokens, estimateTokens } from "../../core/compaction/estimate.ts";
import { usageTokens } from "../../core/state/conversation.ts";

/**
 * The line after each turn: the turn's tokens in and out, the share of input served from the
 * cache, its dollars, and how full the context window was at the last answer. Pure.
 */
export function turnStatus(agent: AgentView): string {
  const turn = Object.values(agent.turnUsageByModel);
  const input = sum(turn, (u) => u.input_tokens);
  const cached = sum(turn, (u) => u.cache_read_input_tokens ?? 0);
  const written = sum(turn, (u) => u.cache_creation_input_tokens ?? 0);
  const output = sum(turn, (u) => u.output_tokens);
  const all = input + cached + written;
  const share = all === 0 ? 0 : Math.round((cached / all) * 100);
  const used = contextUsed(agent.lastUsage);
  const window = contextWindowOf(agent.model);
  return [
    `${compact(all)} in`,
    `${compact(output)} out`,
    `${share}% cached`,
    formatCost(totalCost(agent.turnUsageByModel)),
    `context ${compact(used)}/${compact(window)} (${Math.round((used / window) * 100)}%)`,
  ].join(" · ");
}

/**
 * `/context`: how the context window is spent, as a bar and a line per part (system prompt,
 * tools, messages, free). The parts are estimated from the request rein would send now (about
 * four characters a token), scaled to the last answer's measured input when there is one. Pure.
 */
export function contextReport(
  request: MessagesRequest,
  agent: AgentView,
  compaction?: CompactionConfig,
  width = 40,
): string {
  const system = estimateTokens(request.system);
  const tools = estimateTokens(request.tools);
  const messages = estimateTokens(request.messages);
  const estimated = system + tools + messages;
  const measured = contextTokens(agent, () => estimated);
  const scale = measured > 0 && estimated > 0 ? measured / estimated : 1;
  const window = compaction?.window ?? contextWindowOf(agent.model);
  const parts = [
    ["system prompt", Math.round(system * scale), "█"],
    ["tools", Math.round(tools * scale), "▓"],
    ["messages", Math.round(messages * scale), "▒"],
  ] as const;
  const used = parts.reduce((total, [, tokens]) => total + tokens, 0);
  const free = Math.max(0, window - used);
  const cells = (tokens: number) => Math.round((tokens / window) * width);
  const bar = parts.map(([, tokens, mark]) => mark.repeat(cells(tokens))).join("");
  const lines = [
    `${agent.model} · ${compact(used)}/${compact(window)} tokens (${
      Math.round((used / window) * 100)
    }%)`,
    `[${bar}${"░".repeat(Math.max(0, width - bar.length))}]`,
    ...parts.map(([name, tokens, mark]) => `  ${mark} ${name.padEnd(14)} ${compact(tokens)}`),
    `  ░ ${"free".padEnd(14)} ${compact(free)}`,
    ...compactionLines(compaction, used, agent.compactions),
  ];
  return lines.join("\n");
}

/** Where the conversation is compacted, and how often it was. */
function compactionLines(
  config: CompactionConfig | undefined,
  used: number,
  compactions: number,
): string[] {
  if (!config) return [];
  const done = compactions === 0
    ? ""
    : ` · compacted ${compactions} ${compactions === 1 ? "time" : "times"}`;
  if (!config.auto) {
    return [`auto-compact off (autoCompact or DISABLE_AUTO_COMPACT): /compact compacts${done}`];
  }
  const pct = Math.round((config.threshold / config.window) * 100);
  const source = config.thresholdSource === "default" ? "" : ` (${config.thresholdSource})`;
  const left = Math.max(0, config.threshold - used);
  return [
    `auto-compact at ${compact(config.threshold)} (${pct}% of the window)${source}: ` +
    `${compact(left)} to go${done}`,
  ];
}

function contextUsed(usage: Usage | null): number {
  return usage ? usageTokens(usage) : 0;
}

function sum(usages: readonly Usage[], pick: (usage: Usage) => number): number {
  return usages.reduce((total, usage) => total + pick(usage), 0);
}

/** 950, 12.3k, 1.2M. */
function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}
