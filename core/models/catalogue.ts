/** What rein knows of a model: its window, its output limit and its prices. */
export interface ModelInfo {
  /** The id sent to the API (with a `[1m]` suffix when the 1M window is selected). */
  id: string;
  family: "opus" | "sonnet" | "haiku" | "fable";
  /** Context window in tokens. */
  contextWindow: number;
  /** Most output tokens one response may have. */
  maxOutputTokens: number;
  /** Dollars per million input tokens. */
  inputPrice: number;
  /** Dollars per million output tokens. */
  outputPrice: number;
}

/** The model a session uses unless told otherwise. */
export const DEFAULT_MODEL = "claude-sonnet-5";

/** Window assumed for a model id rein does not know (custom endpoints serve others). */
export const UNKNOWN_MODEL_WINDOW = 200_000;

/** Output limit assumed for a model id rein does not know. */
export const UNKNOWN_MODEL_MAX_OUTPUT = 32_000;

/** The suffix that selects a model's 1M-token context window. */
export const ONE_MILLION_SUFFIX = "[1m]";

/**
 * The models rein knows, newest of each family first (so an alias names the first of its
 * family). Figures from Claude Code 2.1.197 (compat.md).
 */
export const MODELS: readonly ModelInfo[] = [
  model("claude-opus-4-8", "opus", 200_000, 64_000, 5, 25),
  model("claude-sonnet-5", "sonnet", 200_000, 64_000, 3, 15),
  model("claude-fable-5", "fable", 200_000, 64_000, 10, 50),
  model("claude-sonnet-4-6", "sonnet", 200_000, 32_000, 3, 15),
  model("claude-haiku-4-5", "haiku", 200_000, 32_000, 1, 5),
];

/** Models whose 1M-token window can be selected with the `[1m]` suffix. */
const ONE_MILLION: ReadonlySet<string> = new Set(["claude-opus-4-8"]);

/** The result of resolving a name the user typed. */
export type ResolvedModel =
  | { known: true; info: ModelInfo }
  | { known: false; id: string };

/**
 * Resolve what the user typed (`--model`, a setting, `/model`): an alias (`opus`, `sonnet`,
 * `haiku`, `fable`, optionally with `[1m]`) names the newest model of its family; a known id is
 * itself; any other id is passed through unknown, for endpoints that serve other models. Pure.
 * Throws for an empty name, or for `[1m]` on a model without a 1M window.
 */
export function resolveModel(name: string): ResolvedModel {
  const trimmed = name.trim();
  if (!trimmed) {
    throw new Error("Empty model name: pass an id or one of opus, sonnet, haiku, fable");
  }
  const wantsMillion = trimmed.toLowerCase().endsWith(ONE_MILLION_SUFFIX);
  const base = wantsMillion ? trimmed.slice(0, -ONE_MILLION_SUFFIX.length) : trimmed;
  const info = MODELS.find((m) => m.family === base.toLowerCase()) ??
    MODELS.find((m) => m.id === base);
  if (!info) return { known: false, id: trimmed };
  if (!wantsMillion) return { known: true, info };
  if (!ONE_MILLION.has(info.id)) {
    throw new Error(
      `Model "${info.id}" has no 1M-token window; [1m] works with ${[...ONE_MILLION].join(", ")}`,
    );
  }
  return {
    known: true,
    info: { ...info, id: `${info.id}${ONE_MILLION_SUFFIX}`, contextWindow: 1_000_000 },
  };
}

/** {@link modelInfo} by id, as resolved (a log names a few models). */
const INFOS = new Map<string, ModelInfo | undefined>();
const MAX_INFOS = 256;

/** What rein knows of `id` as recorded in a log, or assumes of an unknown one. Pure. */
export function modelInfo(id: string): ModelInfo | undefined {
  // Asked several times a round (the pool, compaction): each id is resolved once.
  if (INFOS.has(id)) return INFOS.get(id);
  const resolved = resolveModelQuietly(id);
  const info = resolved?.known ? resolved.info : undefined;
  if (INFOS.size >= MAX_INFOS) INFOS.clear();
  INFOS.set(id, info);
  return info;
}

/** The context window of `id`, assumed for an unknown one. Pure. */
export function contextWindowOf(id: string): number {
  return modelInfo(id)?.contextWindow ?? UNKNOWN_MODEL_WINDOW;
}

/** The output limit of `id`, assumed for an unknown one. Pure. */
export function maxOutputOf(id: string): number {
  return modelInfo(id)?.maxOutputTokens ?? UNKNOWN_MODEL_MAX_OUTPUT;
}

/** One line per known model, for `/model` and error messages. Pure. */
export function describeModels(): string[] {
  return MODELS.map((m) =>
    `${m.id.padEnd(20)} ${m.family.padEnd(7)} ${String(m.contextWindow / 1000)}k window, ` +
    `${m.maxOutputTokens / 1000}k output, $${m.inputPrice}/$${m.outputPrice} per M tokens`
  );
}

function resolveModelQuietly(id: string): ResolvedModel | undefined {
  try {
    return resolveModel(id);
  } catch {
    return undefined;
  }
}

function model(
  id: string,
  family: ModelInfo["family"],
  contextWindow: number,
  maxOutputTokens: number,
  inputPrice: number,
  outputPrice: number,
): ModelInfo {
  return { id, family, contextWindow, maxOutputTokens, inputPrice, outputPrice };
}
