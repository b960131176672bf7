import { resolve } from "node:path";
import { openJsonlStore } from "../events/jsonl_store.ts";
import { createHarness, type Harness } from "../core/harness.ts";
import { liveEffects } from "../core/runner/live_effects.ts";
import { loadSettings } from "../core/settings/load_settings.ts";
import { foldError } from "./fold.ts";
import { ignoreLogDirectory, type RuntimeEnv } from "./paths.ts";
import { secretValues } from "./secrets.ts";

/** The model used when neither --model nor ANTHROPIC_MODEL says otherwise. */
export const DEFAULT_MODEL = "claude-sonnet-5-5";
/** Output token limit per request. */
export const DEFAULT_MAX_TOKENS = 32_000;

/** A live harness on a workspace's log, as the CLI opens it. */
export interface Runtime {
  workspace: string;
  logPath: string;
  harness: Harness;
  close(): Promise<void>;
}

/**
 * Open a live harness: the model SDK starts loading, the log is opened and folded, and the
 * settings files are read, all at once. Settings diagnostics are reported through `onNotice`.
 */
export async function openRuntime(options: {
  workspace: string;
  logPath: string;
  env: RuntimeEnv;
  onNotice: (message: string) => void;
}): Promise<Runtime> {
  const { workspace, env, logPath } = options;
  const effects = liveEffects({
    apiKey: env.get("ANTHROPIC_API_KEY"),
    authToken: env.get("ANTHROPIC_AUTH_TOKEN"),
    baseURL: env.get("ANTHROPIC_BASE_URL"),
    ...(env.get("REIN_RETRY_BASE_MS")
      ? { retry: { baseDelayMs: Number(env.get("REIN_RETRY_BASE_MS")) } }
      : {}),
  });
  const settings = loadSettings({ workspace, home: env.get("HOME") });
  await ignoreLogDirectory(logPath, workspace);
  const harness = await createHarness({
    openStore: (onEvent) =>
      openJsonlStore(logPath, {
        clock: () => new Date(),
        secrets: secretValues(env, options.onNotice),
        onEvent,
        onNotice: options.onNotice,
      }),
    workspace,
    protectedPaths: [resolve(logPath, ".."), logPath],
    effects,
    settings: await settings.then((loaded) => {
      for (const d of loaded.diagnostics) options.onNotice(`${d.path}: ${d.message}`);
      return loaded.items.settings;
    }),
    foldError: (error, event) => foldError(logPath, error, event),
  });
  return { workspace, logPath, harness, close: () => harness.close() };
}
