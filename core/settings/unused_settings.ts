import { isRecord } from "./is_record.ts";
import type { SettingsSource } from "./settings.ts";

/**
 * Top-level settings keys rein uses: its own parsed keys and those its mechanisms read from
 * `Settings.other` (the sandbox, effort, compaction, the tally, teams, the status line, plugins). A
 * mechanism that starts reading a key adds it here, so the notice below stops naming it.
 */
export const USED_SETTINGS: ReadonlySet<string> = new Set([
  "$schema",
  "model",
  "fallbackModel",
  "apiKeyHelper",
  "permissions",
  "hooks",
  "env",
  "sandbox",
  "effortLevel",
  "autoCompact",
  "autoCompactEnabled",
  "autoCompactWindow",
  "tally",
  "teams",
  "idleTimeout",
  "worktree",
  "statusLine",
  "enabledPlugins",
  "extraKnownMarketplaces",
]);

/**
 * The one line that names every setting, file and folder rein does not use, each once, or
 * undefined when there is none: the top-level keys of `sources` not in {@link USED_SETTINGS}
 * (`includeCoAuthoredBy`, `outputStyle`, `cleanupPeriodDays`, …) and the `unusedFiles`
 * present (`.mcp.json` until MCP lands). A file that does not parse is left to its own error.
 * Pure.
 */
export function unusedSettingsNotice(
  sources: readonly SettingsSource[],
  unusedFiles: readonly string[] = [],
): string | undefined {
  const unused = new Set<string>();
  for (const source of sources) {
    let json: unknown;
    try {
      json = JSON.parse(source.text.replace(/^\uFEFF/, ""));
    } catch {
      continue;
    }
    if (!isRecord(json)) continue;
    for (const key of Object.keys(json)) if (!USED_SETTINGS.has(key)) unused.add(key);
  }
  const names = [...unused, ...unusedFiles];
  if (names.length === 0) return undefined;
  return `rein does not use these Claude Code settings and files, so they do nothing here: ${
    names.join(", ")
  }`;
}
