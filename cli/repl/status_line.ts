/**
 * Claude Code's `statusLine` setting: a command whose output is the REPL's status line. It gets
 * Claude Code's JSON on stdin (session, model, folders, cost) and its first line of output is
 * shown above the prompt, colours and all. It runs as hooks do, as the person: from their own
 * settings, or a trusted folder's (an untrusted folder's is dropped with its hooks, see
 * core/settings/recorded_settings.ts). It only shows: nothing of it is recorded or replayed.
 *
 * @module
 */
import { join } from "../../events/posix_path.ts";
import { totalCost } from "../../core/models/cost.ts";
import { killGroup } from "../../core/tools/kill_group.ts";
import { spawnInOwnSession } from "../../core/tools/own_session_command.ts";
import type { SessionView } from "../../core/state/sessions.ts";

/** How long a status line command may take before it is stopped and shows nothing. */
export const STATUS_LINE_TIMEOUT_MS = 5_000;

/** A `statusLine` setting rein can run. */
export interface StatusLineSetting {
  command: string;
  /** Spaces before the line (Claude Code's `padding`). */
  padding: number;
}

/**
 * The `statusLine` of the settings' other keys, or why it cannot be used. Only `{"type":
 * "command", "command": "…"}` exists in Claude Code. Pure.
 */
export function statusLineSetting(
  other: Readonly<Record<string, unknown>>,
): StatusLineSetting | string | undefined {
  const value = other.statusLine;
  if (value === undefined) return undefined;
  const record = typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
  if (record?.type !== "command" || typeof record.command !== "string" || !record.command.trim()) {
    return 'Invalid settings: "statusLine" must be {"type": "command", "command": "…"}; ' +
      "no status line is shown";
  }
  const padding = typeof record.padding === "number" && Number.isInteger(record.padding)
    ? Math.min(Math.max(record.padding, 0), 20)
    : 0;
  return { command: record.command, padding };
}

/** What a status line command reads on stdin: Claude Code's fields, from the session now. */
export function statusLineInput(
  session: SessionView,
  workspace: string,
  version: string,
): Record<string, unknown> {
  const { model } = session;
  return {
    hook_event_name: "Status",
    session_id: session.id,
    transcript_path: join(workspace, ".rein", "transcripts", `${session.id}.jsonl`),
    cwd: workspace,
    model: { id: model, display_name: model },
    workspace: { current_dir: workspace, project_dir: workspace },
    version,
    output_style: { name: "default" },
    cost: { total_cost_usd: totalCost(session.usageByModel) },
  };
}

/**
 * Runs the status line command with `input` on stdin (bash, in `cwd`, with rein's environment);
 * resolves to its first line of output with the setting's padding, or undefined when it printed
 * nothing, failed or took longer than {@link STATUS_LINE_TIMEOUT_MS}. Never throws.
 */
export async function runStatusLine(
  setting: StatusLineSetting,
  input: Record<string, unknown>,
  cwd: string,
  timeoutMs = STATUS_LINE_TIMEOUT_MS,
): Promise<string | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    // Its own process group (setsid), killed whole at the timeout: a `sleep` it started must not
    // hold its output open, and the prompt, after it.
    const child = spawnInOwnSession("bash", {
      args: ["-c", setting.command],
      cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    });
    let late = false;
    timer = setTimeout(() => {
      late = true;
      void killGroup(child.pid);
    }, timeoutMs);
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(JSON.stringify(input))).catch(() => {});
    await writer.close().catch(() => {});
    const { success, stdout } = await child.output();
    if (!success || late) return undefined;
    const line = new TextDecoder().decode(stdout).split("\n")[0]?.trimEnd() ?? "";
    return line === "" ? undefined : " ".repeat(setting.padding) + line;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}
