import { join, relative } from "../events/posix_path.ts";
import type { SettingsFileRead } from "../events/event_types.ts";
import { parseSettings } from "../core/settings/parse_settings.ts";
import { isPersonal, untrustedSettings } from "../core/settings/recorded_settings.ts";
import { readTrust, writeTrust } from "../core/settings/trust.ts";

/** What {@link decideTrust} needs. */
export interface TrustQuestion {
  workspace: string;
  /** `~/.claude.json` (see `claudeJsonPath`); undefined without a home: nothing is trusted. */
  claudeJson: string | undefined;
  /** The settings files read, highest precedence first. */
  sources: readonly SettingsFileRead[];
  /** `--trust`: the person (or their automation) checked the repository. */
  flag: boolean;
  /**
   * Asks the person whether to trust the folder (the REPL, in a terminal), given what would be
   * ignored; absent: nobody to ask (headless).
   */
  ask?: ((what: string) => Promise<boolean>) | undefined;
  onNotice: (message: string) => void;
}

/**
 * Whether the session trusts its workspace, as Claude Code decides it: `--trust`, or the folder
 * (or one above it) trusted in `~/.claude.json`, or — when the repository's own files set what
 * only trust applies, and someone can be asked — the person's answer, remembered there. When it
 * stays untrusted and the repository sets such things, one line says what is ignored and how to
 * trust the folder.
 */
export async function decideTrust(question: TrustQuestion): Promise<boolean> {
  if (question.flag) return true;
  const read = await readTrust(question.claudeJson, question.workspace);
  if (read.problem !== undefined) question.onNotice(read.problem);
  if (read.trusted) return true;
  const ignored = await ignoredWithoutTrust(question.workspace, question.sources);
  if (ignored.length === 0) return false;
  const what = ignored.join(", ");
  if (question.ask !== undefined && question.claudeJson !== undefined) {
    if (await question.ask(what)) {
      await writeTrust(question.claudeJson, question.workspace, true).catch((error) =>
        question.onNotice(
          `Trusted this folder for this session only: ${
            error instanceof Error ? error.message : String(error)
          }`,
        )
      );
      return true;
    }
  }
  question.onNotice(
    `Ignored in this untrusted folder: ${what}; to apply them, trust it with \`rein trust\` ` +
      "(or --trust, for automation that checked the repository)",
  );
  return false;
}

/**
 * What the repository's own files (project and local settings, `.mcp.json`) set that an
 * untrusted workspace does not apply, each with the file, e.g. `permissions.allow, hooks
 * (.claude/settings.json)`.
 */
async function ignoredWithoutTrust(
  workspace: string,
  sources: readonly SettingsFileRead[],
): Promise<string[]> {
  const ignored: string[] = [];
  for (const source of sources) {
    if (isPersonal(source.scope)) continue;
    const found = new Set<string>();
    untrustedSettings(parseSettings(source).settings, found);
    if (found.size > 0) {
      ignored.push(`${[...found].join(", ")} (${relative(workspace, source.path)})`);
    }
  }
  const mcp = join(workspace, ".mcp.json");
  if (await Deno.stat(mcp).then((info) => info.isFile, () => false)) {
    ignored.push("MCP servers (.mcp.json)");
  }
  return ignored;
}

/**
 * Asks on the terminal whether to trust `workspace`, once, before the REPL starts: y or yes
 * trusts it, anything else does not. Reads one line in the terminal's line mode.
 */
export function askOnTerminal(
  workspace: string,
  write: (text: string) => void,
): (what: string) => Promise<boolean> {
  return async (what) => {
    write(
      `This folder's own settings would apply: ${what}.\n` +
        `Do you trust the files in ${workspace}? Hooks from a trusted folder run as you, ` +
        "outside the sandbox. [y/N] ",
    );
    const buffer = new Uint8Array(1024);
    const read = await Deno.stdin.read(buffer).catch(() => null);
    const answer = read === null ? "" : new TextDecoder().decode(buffer.subarray(0, read));
    return /^\s*y(es)?\s*$/i.test(answer);
  };
}
