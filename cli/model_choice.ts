import { DEFAULT_MODEL, maxOutputOf, resolveModel } from "../core/models/catalogue.ts";

/** Output tokens per request unless the model allows fewer (Claude Code's default). */
export const DEFAULT_MAX_TOKENS = 32_000;

/** A model as a session records it: the id sent to the API and the output limit per request. */
export interface ModelChoice {
  model: string;
  maxTokens: number;
}

/**
 * The model a run uses: `--model`, else `ANTHROPIC_MODEL`, else the `model` setting, else the
 * default; aliases (`opus`, `sonnet[1m]`, …) resolve to the newest id of their family, and an id
 * rein does not know is passed through. Pure. Throws, naming the value and where it came from,
 * for an empty name or a `[1m]` that the model lacks.
 */
export function chooseModel(sources: {
  flag?: string | undefined;
  env?: string | undefined;
  setting?: string | undefined;
}): ModelChoice {
  const [name, from] = sources.flag !== undefined
    ? [sources.flag, "--model"]
    : sources.env
    ? [sources.env, "ANTHROPIC_MODEL"]
    : sources.setting
    ? [sources.setting, 'the "model" setting']
    : [DEFAULT_MODEL, "the default"];
  try {
    return modelChoice(name);
  } catch (error) {
    throw new Error(`Invalid model from ${from}: ${(error as Error).message}`);
  }
}

/** What `name` resolves to, with its output limit. Pure; throws like `resolveModel`. */
export function modelChoice(name: string): ModelChoice {
  const resolved = resolveModel(name);
  const model = resolved.known ? resolved.info.id : resolved.id;
  return { model, maxTokens: Math.min(DEFAULT_MAX_TOKENS, maxOutputOf(model)) };
}

/** How hard the model thinks before it answers (`--effort`, the `effortLevel` setting). */
export type Effort = "low" | "medium" | "high" | "max";

/** The effort levels, for the command line and error messages. */
export const EFFORTS: readonly Effort[] = ["low", "medium", "high", "max"];

/**
 * Extended thinking's token budget for `effort` with output limit `maxTokens` (the budget must
 * stay below it): low 2,048, medium 8,192, high 16,384, max all but one token. Pure. Throws,
 * naming the value, for an unknown level.
 */
export function thinkingBudget(effort: string, maxTokens: number): number {
  const budgets: Record<Effort, number> = {
    low: 2_048,
    medium: 8_192,
    high: 16_384,
    max: maxTokens - 1,
  };
  if (!(EFFORTS as readonly string[]).includes(effort)) {
    throw new Error(`Invalid effort "${effort}": expected one of ${EFFORTS.join(", ")}`);
  }
  return Math.min(budgets[effort as Effort], maxTokens - 1);
}
