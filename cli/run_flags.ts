import type { PermissionFlags } from "../events/event_types.ts";
import { PERMISSION_MODES } from "../core/settings/settings.ts";
import type { RuntimeEnv } from "./paths.ts";

/** The permission options of a command that runs the agent (`agent`, `daemon`). */
export interface PermissionOptions {
  permissionMode?: string | undefined;
  /** Rules from `--allowedTools` / `--disallowedTools`, each value as given. */
  allowedTools?: string[] | undefined;
  disallowedTools?: string[] | undefined;
}

/**
 * The permission flags the runtime records, from a command line's options; an unknown
 * `--permission-mode` is an error naming the modes there are.
 */
export function permissionFlagsOf(options: PermissionOptions): PermissionFlags {
  const mode = options.permissionMode;
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    throw new Error(
      `Invalid --permission-mode "${mode}": expected one of ${PERMISSION_MODES.join(", ")}`,
    );
  }
  return {
    ...(options.allowedTools?.length ? { allowedTools: options.allowedTools } : {}),
    ...(options.disallowedTools?.length ? { disallowedTools: options.disallowedTools } : {}),
    ...(mode === undefined ? {} : { permissionMode: mode }),
  };
}

/** Fails, naming the variables to set, when the environment has no credentials for the API. */
export function requireCredentials(env: RuntimeEnv): void {
  if (env.get("ANTHROPIC_API_KEY") || env.get("ANTHROPIC_AUTH_TOKEN")) return;
  throw new Error(
    "No API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN for a bearer token, with " +
      "ANTHROPIC_BASE_URL for another endpoint)",
  );
}
