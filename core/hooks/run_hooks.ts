import type { Settings } from "../settings/mod.ts";
import { hookMatchNames } from "./claude_tool_names.ts";
import type { HookEventName } from "./hook_input.ts";
import { loadHookMatchers, matcherSelects } from "./hook_matcher.ts";
import { combineVerdicts, type HookVerdict, interpretHookRun } from "./hook_verdict.ts";
import { HOOK_DEFAULT_TIMEOUT_MS, type HookRun, runHookCommand } from "./run_hook_command.ts";

/** Tool events: their matchers are tested against every name of the tool. */
const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
]);

/** One hook command chosen to run for an event. Plain JSON data. */
export interface SelectedHook {
  event: HookEventName;
  /** The matcher of the group the command came from, as written; absent when it had none. */
  matcher?: string;
  command: string;
  timeoutMs: number;
  /** What its environment has beyond the hooks' (a plugin's hook: `CLAUDE_PLUGIN_ROOT`). */
  env?: Record<string, string>;
}

/** One hook command's run: which it was, and what it did. Plain JSON data. */
export type HookRunRecord = SelectedHook & HookRun;

/** What {@linkcode runHooks} needs. */
export interface RunHooksOptions {
  /** The merged settings' hooks, by event name. */
  hooks: Settings["hooks"];
  event: HookEventName;
  /**
   * What matchers are tested against: the tool's name for tool events (rein's or Claude Code's;
   * both are tried), the source for SessionStart. `undefined`: matchers are ignored and every
   * group runs, as for Claude Code's events without matchers (UserPromptSubmit, Stop, …).
   */
  matchValue: string | undefined;
  /** Written to each command's stdin as JSON: see `buildHookInput`. */
  input: unknown;
  cwd: string;
  projectDir: string;
  /** The commands' whole environment, without `CLAUDE_PROJECT_DIR` (added). */
  env: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * Loads what the matchers of `hooks` need (see `loadHookMatchers`): call before
 * {@linkcode selectHooks}. Never throws.
 */
export function hookMatchersReady(hooks: Settings["hooks"]): Promise<void> {
  return loadHookMatchers(Object.values(hooks ?? {}).flat().map((group) => group.matcher));
}

/**
 * The hook commands that would run for `event`, in settings order: those of every group whose
 * matcher selects `matchValue` (see `matcherSelects`), each command string once (the first
 * occurrence wins, as Claude Code deduplicates identical commands), with its timeout in
 * milliseconds (`timeout` seconds, else {@linkcode HOOK_DEFAULT_TIMEOUT_MS}). Pure.
 */
export function selectHooks(
  hooks: Settings["hooks"],
  event: HookEventName,
  matchValue: string | undefined,
): SelectedHook[] {
  const names = matchValue === undefined
    ? undefined
    : TOOL_EVENTS.has(event)
    ? hookMatchNames(matchValue)
    : [matchValue];
  const selected: SelectedHook[] = [];
  const seen = new Set<string>();
  // hasOwn: an event name such as "constructor" must not reach Object.prototype.
  const groups = hooks !== undefined && Object.hasOwn(hooks, event) ? hooks[event] ?? [] : [];
  for (const group of groups) {
    if (names !== undefined && !matcherSelects(group.matcher, names)) continue;
    for (const hook of group.hooks) {
      if (seen.has(hook.command)) continue;
      seen.add(hook.command);
      selected.push({
        event,
        ...(group.matcher === undefined ? {} : { matcher: group.matcher }),
        command: hook.command,
        timeoutMs: hook.timeout === undefined ? HOOK_DEFAULT_TIMEOUT_MS : hook.timeout * 1000,
        ...(hook.env === undefined ? {} : { env: hook.env }),
      });
    }
  }
  return selected;
}

/**
 * Runs the hooks {@linkcode selectHooks} picks, all at once, each with its own timeout, and
 * combines what they decided. Never throws. `runs` are in settings order; `verdict` is
 * `combineVerdicts` over each run's `interpretHookRun`.
 */
export async function runHooks(
  options: RunHooksOptions,
): Promise<{ runs: HookRunRecord[]; verdict: HookVerdict }> {
  await hookMatchersReady(options.hooks);
  const selected = selectHooks(options.hooks, options.event, options.matchValue);
  const runs = await Promise.all(selected.map(async (hook): Promise<HookRunRecord> => {
    const run = await runHookCommand({
      command: hook.command,
      input: options.input,
      cwd: options.cwd,
      env: hook.env === undefined ? options.env : { ...options.env, ...hook.env },
      projectDir: options.projectDir,
      timeoutMs: hook.timeoutMs,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    return { ...hook, ...run };
  }));
  const verdict = combineVerdicts(runs.map((run) => interpretHookRun(options.event, run)));
  return { runs, verdict };
}
