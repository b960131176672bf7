import type { SettingsSnapshot } from "../../events/event_types.ts";
import { recordedSettings } from "../settings/recorded_settings.ts";

/** The environment variables compaction reads (Claude Code's names), recorded with a session. */
export const COMPACTION_ENV = [
  "DISABLE_AUTO_COMPACT",
  "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE",
  "CLAUDE_CODE_AUTO_COMPACT_WINDOW",
] as const;

/** How an agent's context is kept in bounds, from the recorded settings and the model. */
export interface CompactionConfig {
  /**
   * Automatic compaction and the layers that drop context on their own (snip, micro-compaction,
   * compaction on a too-long prompt). Off means off: only `/compact` and the `compact` tool
   * compact then. Large tool results are still kept in files (that loses nothing).
   */
  auto: boolean;
  /** The context window compaction works with: the model's, or a smaller one set by the user. */
  window: number;
  /** Estimated tokens at which the conversation is compacted before the next request. */
  threshold: number;
  /** Where the threshold comes from, for `/context`. */
  thresholdSource: string;
  /** Characters of one tool result above which it is kept in a file and previewed. */
  resultChars: number;
  /** Characters of one round's results above which the largest are kept in files. */
  roundChars: number;
  /** Messages past which the oldest middle messages are cut (snip). */
  snipAt: number;
  /** Messages kept at the end when snipping. */
  snipKeep: number;
  /** Recent tool results micro-compaction leaves alone. */
  keepRecentResults: number;
  /** Old results that must pile up before micro-compaction clears them (in one step). */
  clearStep: number;
}

/** Output set aside below the window before auto-compaction (Claude Code's figures). */
const OUTPUT_RESERVE = 20_000;
const BUFFER = 13_000;

/**
 * The compaction settings of a session: `autoCompact` (or Claude Code's `autoCompactEnabled`)
 * and `autoCompactWindow` from the settings files, and the recorded environment
 * (`DISABLE_AUTO_COMPACT`, `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`, `CLAUDE_CODE_AUTO_COMPACT_WINDOW`),
 * which wins; a settings file's `env` block counts as the environment. Undefined for a session
 * recorded without compaction. Pure.
 */
export function compactionConfig(
  snapshot: SettingsSnapshot | null,
  modelWindow: number,
  maxTokens: number,
): CompactionConfig | undefined {
  if (!snapshot?.env) return undefined;
  const settings = recordedSettings(snapshot).settings;
  const other = settings.other ?? {};
  const env = { ...settings.env, ...snapshot.env };
  const disabled = isTruthy(env.DISABLE_AUTO_COMPACT) || other.autoCompact === false ||
    other.autoCompactEnabled === false;
  const asked = positive(env.CLAUDE_CODE_AUTO_COMPACT_WINDOW) ??
    (typeof other.autoCompactWindow === "number" && other.autoCompactWindow > 0
      ? other.autoCompactWindow
      : undefined);
  const window = Math.max(1_000, Math.min(modelWindow, Math.floor(asked ?? modelWindow)));
  const pct = positive(env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE);
  let threshold: number;
  let thresholdSource: string;
  if (pct !== undefined && pct <= 100) {
    threshold = Math.floor(window * pct / 100);
    thresholdSource = `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=${pct}`;
  } else {
    threshold = Math.max(
      Math.floor(window / 2),
      window - Math.min(maxTokens, OUTPUT_RESERVE) - BUFFER,
    );
    thresholdSource = "default";
  }
  const windowChars = window * 4;
  return {
    auto: !disabled,
    window,
    threshold,
    thresholdSource,
    resultChars: Math.min(30_000, Math.floor(windowChars / 10)),
    roundChars: Math.min(100_000, Math.floor(windowChars / 4)),
    snipAt: 400,
    snipKeep: 250,
    keepRecentResults: 8,
    clearStep: 10,
  };
}

function isTruthy(value: string | undefined): boolean {
  return value !== undefined && value !== "" && !/^(0|false|no|off)$/i.test(value.trim());
}

function positive(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}
