import { costOf, formatCost, totalCost } from "../../core/models/cost.ts";
import { modelInfo } from "../../core/models/catalogue.ts";
import type { SessionView, UsageTotals } from "../../core/state/sessions.ts";

/**
 * `/cost`: the session's tokens and dollars, in all and per model (a model rein has no price
 * for says so instead of counting as free). Pure.
 */
export function costReport(view: SessionView): string {
  const lines = [
    `${formatCost(totalCost(view.usageByModel))} · ${tokens(view.usage)}`,
  ];
  for (const [model, usage] of Object.entries(view.usageByModel)) {
    const price = modelInfo(model) ? formatCost(costOf(model, usage)) : "price unknown";
    lines.push(`  ${model}: ${price} · ${tokens(usage)}`);
  }
  return lines.join("\n");
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
