import { isAbsolute, join } from "../../events/posix_path.ts";
import { mergeSettings } from "./merge_settings.ts";
import { parseSettings } from "./parse_settings.ts";
import type {
  LoadedSettings,
  Settings,
  SettingsDiagnostic,
  SettingsScope,
  SettingsSource,
} from "./settings.ts";

/** Where to look for settings files. */
export interface SettingsLocations {
  /** The project directory, holding `.claude/settings.json` and `.claude/settings.local.json`. */
  workspace: string;
  /** The user's home directory, holding `.claude/settings.json`; no user file when undefined. */
  home: string | undefined;
  /** The file given by `--settings`; a relative path is taken relative to `workspace`. */
  cliFile?: string | undefined;
  /**
   * Which of the user's, the project's and the local file to read (`--setting-sources`, as the
   * Agent SDK's `settingSources`); every one when undefined. The `--settings` file is always read.
   */
  sources?: readonly SettingsSource["scope"][] | undefined;
}

/** A settings file to look for and its place in the precedence order. */
export interface SettingsFile {
  scope: SettingsScope;
  path: string;
}

/** What `loadSettings` needs: the locations, and optionally a reader to use instead of disk. */
export interface LoadSettingsOptions extends SettingsLocations {
  /**
   * Reads a file as text; defaults to `Deno.readTextFile`. A replacement must throw
   * `Deno.errors.NotFound` for a missing file, as Deno does.
   */
  readTextFile?: ((path: string) => Promise<string>) | undefined;
}

/**
 * The settings files to read, highest precedence first: the `--settings` file, then
 * `<workspace>/.claude/settings.local.json`, `<workspace>/.claude/settings.json` and
 * `<home>/.claude/settings.json`. A file named twice (the workspace is the home directory) is
 * listed once, at its highest place. Pure: touches no file.
 */
export function settingsPaths(locations: SettingsLocations): SettingsFile[] {
  const { workspace, home, cliFile } = locations;
  const files: SettingsFile[] = [];
  if (cliFile !== undefined) {
    files.push({ scope: "cli", path: isAbsolute(cliFile) ? cliFile : join(workspace, cliFile) });
  }
  files.push({ scope: "local", path: join(workspace, ".claude", "settings.local.json") });
  files.push({ scope: "project", path: join(workspace, ".claude", "settings.json") });
  if (home !== undefined) {
    files.push({ scope: "user", path: join(home, ".claude", "settings.json") });
  }
  const wanted = locations.sources;
  return files.filter((file, index) =>
    files.findIndex((o) => o.path === file.path) === index &&
    (wanted === undefined || file.scope === "cli" || wanted.includes(file.scope))
  );
}

/**
 * Reads every settings file (in parallel), parses each and merges them. A missing file is
 * simply absent, except the `--settings` file, whose absence is an error; a directory or an
 * unreadable file is an error naming it, and the other files still load. Every file read is in
 * `items.sources` with its text, even one that does not parse, so it can be recorded.
 * Diagnostics come highest precedence file first. Never throws: whatever the reader throws
 * becomes a diagnostic.
 */
export async function loadSettings(options: LoadSettingsOptions): Promise<LoadedSettings> {
  const read = options.readTextFile ?? Deno.readTextFile;
  const files = settingsPaths(options);
  const results = await Promise.all(files.map((file) => readSource(file, read)));
  const sources: SettingsSource[] = [];
  const layers: Partial<Settings>[] = [];
  const diagnostics: SettingsDiagnostic[] = [];
  for (const result of results) {
    if ("diagnostic" in result) {
      diagnostics.push(result.diagnostic);
    } else if (result.source) {
      const parsed = parseSettings(result.source);
      sources.push(result.source);
      layers.push(parsed.settings);
      diagnostics.push(...parsed.diagnostics);
    }
  }
  return { items: { sources, settings: mergeSettings(layers) }, diagnostics };
}

type ReadResult = { source: SettingsSource | undefined } | { diagnostic: SettingsDiagnostic };

async function readSource(
  file: SettingsFile,
  read: (path: string) => Promise<string>,
): Promise<ReadResult> {
  try {
    return { source: { ...file, text: await read(file.path) } };
  } catch (error) {
    // A missing `.claude` directory, or a file where it should be, also means no settings file.
    const missing = error instanceof Deno.errors.NotFound ||
      error instanceof Deno.errors.NotADirectory;
    if (missing && file.scope !== "cli") return { source: undefined };
    const given = file.scope === "cli" ? " given by --settings" : "";
    return {
      diagnostic: {
        path: file.path,
        message: `Cannot read settings in "${file.path}"${given}: ${readFailure(error)}`,
        severity: "error",
        fatal: true,
      },
    };
  }
}

function readFailure(error: unknown): string {
  if (error instanceof Deno.errors.NotFound) return "no such file";
  if (error instanceof Deno.errors.IsADirectory) return "it is a directory, not a file";
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  return error instanceof Error ? error.message : String(error);
}
