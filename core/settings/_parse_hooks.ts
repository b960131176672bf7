/** Reads the `hooks` object of one settings file. */
import { isRecord, keyPath, quote, quoteAll, type Reporter } from "./_reporter.ts";
import { HOOK_EVENTS, type HookCommand, type HookMatcher } from "./settings.ts";

/** Claude Code's hook events rein has no moment for, and why their hooks never run here. */
const NOT_RUN: Readonly<Record<string, string>> = {
  Setup: "Claude Code runs Setup hooks for --init, --init-only and --maintenance, which rein " +
    "does not have, so they never run here",
};

/** Matchers read as exact tool names rather than as regular expressions. */
const PLAIN_MATCHER = /^[\w|]*$|^\*$/;

/**
 * The valid parts of `value` (the `hooks` key), by event name; every bad part is reported and
 * dropped, the rest kept. Unknown event names are kept with a warning. `undefined` when `value`
 * is not an object. Pure.
 */
export function parseHooks(
  value: unknown,
  report: Reporter,
): Record<string, HookMatcher[]> | undefined {
  if (!isRecord(value)) {
    report.mismatch("hooks", "an object", value);
    return undefined;
  }
  const events: [string, HookMatcher[]][] = [];
  for (const [event, groups] of Object.entries(value)) {
    const where = keyPath("hooks", event);
    if (Object.hasOwn(NOT_RUN, event)) {
      report.warning("Hook event rein does not run", `${where}: ${NOT_RUN[event]}`);
    } else if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      report.warning(
        "Unknown hook event",
        `${where} is not one of ${quoteAll(HOOK_EVENTS)}, so its hooks never run`,
      );
    }
    if (!Array.isArray(groups)) {
      report.mismatch(where, "an array of matchers", groups);
      continue;
    }
    const matchers: HookMatcher[] = [];
    for (const [index, group] of groups.entries()) {
      const matcher = parseMatcher(group, `${where}[${index}]`, report);
      if (matcher) matchers.push(matcher);
    }
    events.push([event, matchers]);
  }
  // fromEntries defines keys as data, so an event named "__proto__" stays an ordinary key.
  return Object.fromEntries(events);
}

/** A whole group is dropped when its matcher is bad: running it for every tool would be worse. */
function parseMatcher(value: unknown, where: string, report: Reporter): HookMatcher | undefined {
  if (!isRecord(value)) {
    report.mismatch(where, `an object like {"matcher": "Bash", "hooks": [...]}`, value);
    return undefined;
  }
  const { matcher, hooks } = value;
  if (matcher !== undefined && !isValidMatcher(matcher, `${where}.matcher`, report)) {
    return undefined;
  }
  if (!Array.isArray(hooks)) {
    report.mismatch(`${where}.hooks`, "an array of hooks", hooks);
    return undefined;
  }
  const commands: HookCommand[] = [];
  for (const [index, hook] of hooks.entries()) {
    const command = parseCommand(hook, `${where}.hooks[${index}]`, report);
    if (command) commands.push(command);
  }
  return matcher === undefined ? { hooks: commands } : { matcher, hooks: commands };
}

function isValidMatcher(value: unknown, where: string, report: Reporter): value is string {
  if (typeof value !== "string") {
    report.mismatch(where, "a string", value);
    return false;
  }
  if (PLAIN_MATCHER.test(value)) return true;
  try {
    new RegExp(value);
    return true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    report.invalid(`${where} must be a valid regular expression, found ${quote(value)}: ${reason}`);
    return false;
  }
}

/** A bad timeout drops only the timeout: the command still runs, with the default one. */
function parseCommand(value: unknown, where: string, report: Reporter): HookCommand | undefined {
  if (!isRecord(value)) {
    report.mismatch(where, `an object like {"type": "command", "command": "..."}`, value);
    return undefined;
  }
  const { type, command, timeout } = value;
  if (type !== "command") {
    report.mismatch(`${where}.type`, `"command"`, type);
    return undefined;
  }
  if (typeof command !== "string" || command.trim() === "") {
    report.mismatch(`${where}.command`, "a non-empty string", command);
    return undefined;
  }
  if (timeout === undefined) return { type, command };
  if (typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0) {
    return { type, command, timeout };
  }
  report.invalid(
    `${where}.timeout must be a positive number of seconds, found ${quote(timeout)}; ` +
      `the hook runs with the default timeout`,
  );
  return { type, command };
}
