import type { PluginRoot } from "./plugin_root.ts";

/** Where a session works, for mechanisms that read files: its workspace and the home directory. */
export interface FilePlace {
  workspace: string;
  home: string | undefined;
  /**
   * Credential stores (see `credentialPaths`), never read at start wherever a file leads; the
   * harness fills in those under `home` when absent.
   */
  credentials?: readonly string[];
  /**
   * The plugins the session uses (`--plugin-dir`, enabled ones), in order: their `commands/`,
   * `agents/`, `skills/` and `hooks/hooks.json` are read after the project's and the person's.
   */
  plugins?: readonly PluginRoot[];
  /**
   * Which of Claude Code's setting sources the session reads files of (`--setting-sources`, the
   * Agent SDK's `settingSources`): `user` (~/.claude's CLAUDE.md, rules, skills, commands,
   * agents), `project` (the workspace's and its parents' CLAUDE.md and AGENTS.md, and the
   * workspace's .claude/ rules, skills, commands, agents) and `local` (CLAUDE.local.md); every
   * one when undefined. rein's own files (its skills, the memory index) and plugins are read
   * whatever it says.
   */
  sources?: readonly SettingSource[];
  /** Reports a file that could not be used, naming it. */
  onNotice(message: string): void;
}

/** One of Claude Code's setting sources. */
export type SettingSource = "user" | "project" | "local";

/** Whether `place` reads the files of `source` (see {@link FilePlace.sources}). Pure. */
export function readsSource(place: Pick<FilePlace, "sources">, source: SettingSource): boolean {
  return place.sources === undefined || place.sources.includes(source);
}
