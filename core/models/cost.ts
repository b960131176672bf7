import type { Usage } from "../../events/event_types.ts";
import { modelInfo } from "./catalogue.ts";

/** Cache reads cost this share of the input price; cache writes (5 minutes) this multiple. */
const CACHE_READ_FACTOR = 0.1;
const CACHE_WRITE_FACTOR = 1.25;

/**
 * Dollars for `usage` of `model`, from the catalogue's prices (compat.md): input, output, cache
 * reads at 0.1× and cache writes at 1.25× the input price. 0 for a model rein does not know
 * (its price is unknown, not free: callers say so). Pure.
 */
export function costOf(model: string, usage: Usage): number {
  const info = modelInfo(model);
  if (!info) return 0;
  const input = info.inputPrice / 1_000_000;
  const output = info.outputPrice / 1_000_000;
  return usage.input_tokens * input + usage.output_tokens * output +
    (usage.cache_read_input_tokens ?? 0) * input * CACHE_READ_FACTOR +
    (usage.cache_creation_input_tokens ?? 0) * input * CACHE_WRITE_FACTOR;
}

/** Dollars for usage per model, summed. Pure. */
export function totalCost(byModel: Readonly<Record<string, Usage>>): number {
  return Object.entries(byModel).reduce((sum, [model, usage]) => sum + costOf(model, usage), 0);
}

/** `$0.29`, `$0.0042`: two significant decimals below a cent. Pure. */
export function formatCost(dollars: number): string {
  if (dollars === 0) return "$0.00";
  if (dollars >= 0.01) return `$${dollars.toFixed(2)}`;
  return `$${dollars.toPrecision(2)}`;
}
