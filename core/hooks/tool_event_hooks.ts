import type { HookRan, SettingsSnapshot } from "../../events/event_types.ts";
import { type RecordedSettings, recordedSettings } from "../settings/recorded_settings.ts";
import type { State } from "../state/state.ts";
import type { BashSandbox } from "../tools/bash.ts";
import { buildHookInput, type HookEventData } from "./hook_input.ts";
import { combineVerdicts, type HookVerdict, interpretHookRun } from "./hook_verdict.ts";
import type { HooksOptions } from "./hooks_options.ts";
import { runHookCommand } from "./run_hook_command.ts";
import { ENV_FILE_MAX_BYTES, type EnvFile, parseEnvFile } from "./env_file.ts";
import { hookSessionFacts } from "./hook_session_facts.ts";
import { hookTranscriptPath, type TranscriptWriter } from "./claude_transcript.ts";
import { hookMatchersReady, type SelectedHook, selectHooks } from "./run_hooks.ts";

/** The call a tool fires hooks of its own for (TaskCreated, TaskCompleted). */
export interface HookCall {
  session: string;
  callId: string;
  signal: AbortSignal;
  /** The state as the call sees it: the session's recorded settings select the hooks. */
  view(): State;
}

/** What a tool's hooks did: each run as recorded, and why they refused, if they did. */
export interface ToolEventHooks {
  runs: HookRan[];
  /** The reason of a hook that blocked (exit 2, `decision: "block"`) or stopped the agent. */
  block?: string;
}

/**
 * Runs the hooks of events that a tool fires itself, inside its run (a task being created or
 * completed): live, all at once, as the hooks mechanism runs the others (the project's commands
 * in the sandbox). Nothing is recorded here: the tool records the runs (`hook.ran`) with its
 * result, so only effect tools may use it (replay serves their results and runs no hook). Sessions
 * recorded without settings run none. Never throws.
 */
export function toolEventHooks(
  options: HooksOptions,
  /** Live: brings the session's Claude Code transcript up to date before the hooks run. */
  transcripts?: TranscriptWriter,
): (call: HookCall, data: HookEventData) => Promise<ToolEventHooks> {
  return async (call, data) => {
    const view = call.view().sessions.byId[call.session];
    if (!view?.settings) return { runs: [] };
    const recorded = recordedSettings(view.settings);
    await hookMatchersReady(recorded.settings.hooks);
    const selected = selectHooks(recorded.settings.hooks, data.event, undefined);
    if (selected.length === 0) return { runs: [] };
    const trusted = personalCommands(view.settings, recorded);
    const sandbox = await options.sandbox;
    const input = buildHookInput({
      sessionId: call.session,
      transcriptPath: hookTranscriptPath(options, call.session),
      cwd: view.workspace,
      permissionMode: recorded.mode,
      ...hookSessionFacts(call.view(), call.session),
    }, data);
    await transcripts?.(call.view(), call.session);
    const runs = await Promise.all(
      selected.map((hook) =>
        runHook(
          hook,
          { input, callId: call.callId, trusted, sandbox, signal: call.signal },
          options,
        )
      ),
    );
    const verdict = combineVerdicts(runs.map((run) => interpretHookRun(data.event, run)));
    const block = verdict.block?.reason ??
      (verdict.stop === undefined
        ? undefined
        : verdict.stop.reason || `a ${data.event} hook said stop`);
    return block === undefined ? { runs } : { runs, block };
  };
}

/** How one selected hook runs: with what stdin, for which call, and whose commands are trusted. */
export interface HookRunContext {
  input: unknown;
  callId: string | undefined;
  /** Commands from the person's own settings: they run outside the sandbox. */
  trusted: ReadonlySet<string>;
  sandbox: BashSandbox | undefined;
  signal: AbortSignal;
}

/** Run one selected hook command live and describe its run as `hook.ran` records it. */
export async function runHook(
  hook: SelectedHook,
  context: HookRunContext,
  options: HooksOptions,
): Promise<HookRan> {
  const { sandbox } = context;
  const confined = sandbox !== undefined && !context.trusted.has(hook.command);
  const env = hook.env === undefined ? options.env : { ...options.env, ...hook.env };
  // A SessionStart hook may set variables for the session's bash commands, as in Claude Code
  // (not one confined to the sandbox, whose private /tmp the file would be in).
  const envFile = hook.event === "SessionStart" && !confined
    ? await Deno.makeTempFile({ prefix: "rein-env-", suffix: ".sh" }).catch(() => undefined)
    : undefined;
  const run = await runHookCommand({
    command: hook.command,
    input: context.input,
    cwd: options.workspace,
    env: envFile === undefined ? env : { ...env, CLAUDE_ENV_FILE: envFile },
    projectDir: options.workspace,
    timeoutMs: hook.timeoutMs,
    signal: context.signal,
    ...(confined ? { argv: (args: readonly string[]) => sandbox.argv(args, []) } : {}),
  });
  // What a sandboxed command may leave behind that git would read later (a new `commondir`).
  if (confined) await sandbox.afterCall?.();
  const written = envFile === undefined
    ? undefined
    : await readEnvFile(envFile, { ...env, CLAUDE_PROJECT_DIR: options.workspace });
  return {
    hookEvent: hook.event,
    ...(context.callId === undefined ? {} : { callId: context.callId }),
    matcher: hook.matcher ?? "",
    command: hook.command,
    ...run,
    decision: describeVerdict(interpretHookRun(hook.event, { ...run, command: hook.command })),
    ...(written === undefined || Object.keys(written.env).length === 0 ? {} : { env: written.env }),
    ...(written === undefined || written.ignored.length === 0
      ? {}
      : { envIgnored: written.ignored }),
  };
}

/**
 * What a hook wrote to its env file (`CLAUDE_ENV_FILE`), parsed (never run by a shell), then the
 * file removed. A file over {@linkcode ENV_FILE_MAX_BYTES} is ignored whole. Never throws.
 */
async function readEnvFile(
  path: string,
  base: Readonly<Record<string, string>>,
): Promise<EnvFile | undefined> {
  try {
    const file = await Deno.open(path, { read: true });
    try {
      const { size } = await file.stat();
      if (size > ENV_FILE_MAX_BYTES) {
        return { env: {}, ignored: [`the file is over ${ENV_FILE_MAX_BYTES} bytes (${size})`] };
      }
      const bytes = new Uint8Array(size);
      let read = 0;
      while (read < size) {
        const n = await file.read(bytes.subarray(read));
        if (n === null) break;
        read += n;
      }
      return parseEnvFile(new TextDecoder().decode(bytes.subarray(0, read)), base);
    } finally {
      file.close();
    }
  } catch {
    return undefined;
  } finally {
    await Deno.remove(path).catch(() => {});
  }
}

/**
 * Hook commands from the person's own settings (user scope, `--settings`) and the plugins they
 * chose, not the project's.
 */
export function personalCommands(
  snapshot: SettingsSnapshot,
  recorded: RecordedSettings,
): Set<string> {
  const commands = new Set<string>();
  recorded.files.forEach((file, index) => {
    const scope = snapshot.sources[index]?.scope;
    if (scope !== "user" && scope !== "cli" && scope !== "plugin") return;
    for (const matchers of Object.values(file.settings.hooks ?? {})) {
      for (const matcher of matchers) for (const hook of matcher.hooks) commands.add(hook.command);
    }
  });
  return commands;
}

/** A run's verdict in a few words, for `rein state` and the transcript. Pure. */
function describeVerdict(verdict: HookVerdict): string {
  const parts: string[] = [];
  if (verdict.permission) {
    parts.push(
      `${verdict.permission.decision}${
        verdict.permission.reason ? `: ${verdict.permission.reason}` : ""
      }`,
    );
  }
  if (verdict.block) parts.push(`block: ${verdict.block.reason}`);
  if (verdict.stop) parts.push(`stop${verdict.stop.reason ? `: ${verdict.stop.reason}` : ""}`);
  if (verdict.updatedInput) parts.push("input rewritten");
  if (verdict.additionalContext.length > 0) parts.push("context added");
  parts.push(...verdict.userMessages);
  return parts.length === 0 ? "no decision" : parts.join("; ");
}
