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
  /** Reports a file that could not be used, naming it. */
  onNotice(message: string): void;
}
