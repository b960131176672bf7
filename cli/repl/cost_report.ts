import { costOf, formatCost, totalCost } from "../../core/models/cost.ts";
import { modelInfo } from "../../core/models/catalogue.ts";
import type { AgentView, SessionView, UsageTotals } from "../../core/state/sessions.ts";

/**
 * `/cost`: the session's tokens and dollars, in all and per model (a model rein has no price
 * for says so instead of counting as free), teammates' included; with a team, also per agent:
 * the lead and each teammate. Pure.
 */
export function costReport(view: SessionView): string {
  const lines = [
    `${formatCost(totalCost(view.usageByModel))} · ${tokens(view.usage)}`,
  ];
  for (const [model, usage] of Object.entries(view.usageByModel)) {
    lines.push(`  ${model}: ${price(usage, model)} · ${tokens(usage)}`);
  }
  const teammates = Object.entries(view.agents).filter(([, a]) => a.spawn?.teammate !== undefined);
  if (teammates.length === 0) return lines.join("\n");
  const lead = view.agents[view.mainAgent];
  if (lead) lines.push(`  lead: ${agentCost(lead)}`);
  for (const [name, agent] of teammates) lines.push(`  ${name} (teammate): ${agentCost(agent)}`);
  return lines.join("\n");
}

/** A model's dollars for `usage`, or that rein has no price for it. */
function price(usage: UsageTotals, model: string): string {
  return modelInfo(model) ? formatCost(costOf(model, usage)) : "price unknown";
}

/** One agent's dollars and tokens, over every model it asked. */
function agentCost(agent: AgentView): string {
  const known = Object.keys(agent.usageByModel).every((model) => modelInfo(model));
  const dollars = formatCost(totalCost(agent.usageByModel));
  return `${known ? dollars : `${dollars} (some at an unknown price)`} · ${tokens(agent.usage)}`;
}

function tokens(usage: UsageTotals): string {
  const cached = usage.cache_read_input_tokens;
  const input = usage.input_tokens + cached + usage.cache_creation_input_tokens;
  const hit = input === 0 ? 0 : Math.round((cached / input) * 100);
  return `${count(usage.input_tokens)} in, ${count(usage.output_tokens)} out, ` +
    `${count(cached)} cache read (${hit}% of input), ${count(usage.cache_creation_input_tokens)} ` +
    "cache written";
}

function count(n: number): string {
  return n.toLocaleString("en-US");
}
