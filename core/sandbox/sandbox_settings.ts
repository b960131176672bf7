/** The `sandbox` settings rein uses. */
export interface SandboxSettings {
  /** Run bash in the sandbox when bwrap works here (default true). */
  enabled: boolean;
  /** Refuse to run bash unconfined: a missing or broken bwrap is an error (default false). */
  required: boolean;
  /** Let commands use the network (default true); false gives them none. */
  network: boolean;
}

/** The settings when a file says nothing. */
export const DEFAULT_SANDBOX_SETTINGS: Readonly<SandboxSettings> = {
  enabled: true,
  required: false,
  network: true,
};

/** Claude Code's sandbox keys that rein does not implement: named in a diagnostic, not guessed at. */
const CLAUDE_CODE_KEYS = [
  "autoAllowBashIfSandboxed",
  "excludedCommands",
  "allowUnsandboxedCommands",
  "filesystem",
  "ignoreViolations",
  "enableWeakerNestedSandbox",
  "enableWeakerNetworkIsolation",
];

/**
 * Reads the `sandbox` value of the merged settings (`Settings.other.sandbox`): `enabled`,
 * `required` (or Claude Code's `failIfUnavailable`) and `network`, each a boolean. A value of the
 * wrong type keeps the default and is reported; so is Claude Code's object form of `network`
 * (a domain filter rein does not have: the network stays on) and any key rein does not use.
 * Pure; never throws.
 */
export function sandboxSettings(
  value: unknown,
): { items: SandboxSettings; diagnostics: string[] } {
  const items = { ...DEFAULT_SANDBOX_SETTINGS };
  const diagnostics: string[] = [];
  if (value === undefined) return { items, diagnostics };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    diagnostics.push(`Invalid settings: sandbox must be an object, found ${show(value)}`);
    return { items, diagnostics };
  }
  for (const [key, entry] of Object.entries(value)) {
    const field = key === "failIfUnavailable" ? "required" : key;
    if (field === "enabled" || field === "required" || field === "network") {
      if (typeof entry === "boolean") items[field] = entry;
      else if (field === "network" && typeof entry === "object" && entry !== null) {
        diagnostics.push(
          "Unsupported settings: sandbox.network as an object (Claude Code's domain filter) is " +
            'not supported by rein, so commands keep the network; set "network": false to cut it',
        );
      } else {
        diagnostics.push(
          `Invalid settings: sandbox.${key} must be true or false, found ${show(entry)}`,
        );
      }
    } else if (CLAUDE_CODE_KEYS.includes(key)) {
      diagnostics.push(`Unsupported settings: sandbox.${key} is not supported by rein, ignored`);
    } else {
      diagnostics.push(`Unknown settings: sandbox.${key} is not a sandbox setting, ignored`);
    }
  }
  return { items, diagnostics };
}

function show(value: unknown): string {
  return value === undefined ? "undefined" : JSON.stringify(value);
}
