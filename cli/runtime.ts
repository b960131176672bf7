import { resolve } from "node:path";
import { openJsonlStore } from "../events/jsonl_store.ts";
import { createHarness, type Harness } from "../core/harness.ts";
import { liveEffects } from "../core/runner/live_effects.ts";
import { DEFAULT_RETRY_POLICY, retryPolicyFromEnv } from "../core/recovery/retry.ts";
import { loadSettings } from "../core/settings/load_settings.ts";
import { foldError } from "./fold.ts";
import { ignoreLogDirectory, type RuntimeEnv } from "./paths.ts";
import { secretValues } from "./secrets.ts";

/** A live harness on a workspace's log, as the CLI opens it. */
export interface Runtime {
  workspace: string;
  logPath: string;
  harness: Harness;
  /** Attempts per model request, for the retry line. */
  maxAttempts: number;
  close(): Promise<void>;
}

/**
 * Open a live harness. The settings files are read and the log directory is checked first, then
 * the model SDK starts loading in the background, and the log is opened and folded as soon as
 * the settings are in; only the first model request waits for the SDK. Start-up is bound by the
 * CPU (loading modules), not by these few reads, so what matters is that none of them waits for
 * another to be issued. Settings diagnostics are reported through `onNotice`.
 */
export async function openRuntime(options: {
  workspace: string;
  logPath: string;
  env: RuntimeEnv;
  onNotice: (message: string) => void;
}): Promise<Runtime> {
  const { workspace, env, logPath } = options;
  const settings = loadSettings({ workspace, home: env.get("HOME") }).then((loaded) => {
    for (const d of loaded.diagnostics) options.onNotice(d.message);
    return loaded.items.settings;
  });
  const ignored = ignoreLogDirectory(logPath, workspace);
  const retry = retryPolicyFromEnv((name) => env.get(name));
  const effects = liveEffects({
    apiKey: env.get("ANTHROPIC_API_KEY"),
    authToken: env.get("ANTHROPIC_AUTH_TOKEN"),
    baseURL: env.get("ANTHROPIC_BASE_URL"),
    retry,
  });
  const [loaded] = await Promise.all([settings, ignored]);
  const harness = await createHarness({
    openStore: (onEvent, { eventTypes }) =>
      openJsonlStore(logPath, {
        eventTypes,
        clock: () => new Date(),
        secrets: secretValues(env, options.onNotice),
        onEvent,
        onNotice: options.onNotice,
      }),
    workspace,
    protectedPaths: [resolve(logPath, ".."), logPath],
    effects,
    settings: loaded,
    foldError: (error, event) => foldError(logPath, error, event),
  });
  const maxAttempts = retry.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts;
  return {
    workspace,
    logPath,
    harness,
    maxAttempts,
    close: () => harness.close(),
  };
}
