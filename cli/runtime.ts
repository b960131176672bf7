import { resolve } from "node:path";
import { openJsonlStore } from "../events/jsonl_store.ts";
import type { EventStore } from "../events/store.ts";
import { createAnthropicModel } from "../core/effects/anthropic_model.ts";
import { DEFAULT_RETRY_POLICY, retryDelay, type RetryPolicy } from "../core/recovery/retry.ts";
import type { SessionDeps } from "../core/loop/agent_loop.ts";
import { abortableSleep } from "../core/effects/sleep.ts";
import { initialState, type State } from "../core/state/state.ts";
import { foldLogged } from "./fold.ts";
import { createToolExecutor } from "../core/tools/executor.ts";
import { createBaseTools } from "../core/tools/base_tools.ts";
import type { AnyTool } from "../core/tools/tool.ts";
import { toolDefinition } from "../core/tools/schema.ts";

/** The model used when neither --model nor ANTHROPIC_MODEL says otherwise. */
export const DEFAULT_MODEL = "claude-sonnet-5-5";
/** Output token limit per request. */
export const DEFAULT_MAX_TOKENS = 32_000;

/** Environment the runtime reads, passed in so nothing reads env at module scope. */
export interface RuntimeEnv {
  get(name: string): string | undefined;
  toObject(): Record<string, string>;
}

/** Everything a live agent run is wired from. */
export interface Runtime {
  workspace: string;
  logPath: string;
  store: EventStore;
  state: State;
  tools: AnyTool[];
  deps: SessionDeps;
  close(): Promise<void>;
}

/** The default log of a workspace. */
export function defaultLogPath(workspace: string): string {
  return resolve(workspace, ".rein", "events.jsonl");
}

/**
 * The directory the user ran the command from. Under `deno task` the process runs in the
 * config's directory; rein's tasks pass where the user was (`INIT_CWD`) as REIN_CALLER_DIR.
 * INIT_CWD itself is not read: npm sets it too, and an installed `rein` run from an npm script
 * must not take the npm project's directory for its own.
 */
export function callerDir(env: RuntimeEnv, cwd: string): string {
  return env.get("REIN_CALLER_DIR") || cwd;
}

/** A path from the command line, resolved against the user's directory. */
export function userPath(path: string, env: RuntimeEnv, cwd: string): string {
  return resolve(callerDir(env, cwd), path);
}

/**
 * The workspace a command works in: --workspace (relative to where the user was), else the
 * directory the user ran the command from. Must be an existing directory.
 */
export function resolveWorkspace(flag: string | undefined, env: RuntimeEnv, cwd: string): string {
  const chosen = userPath(flag ?? ".", env, cwd);
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(chosen);
  } catch {
    throw new Error(`Workspace "${chosen}" does not exist`);
  }
  if (!info.isDirectory) throw new Error(`Workspace "${chosen}" is not a directory`);
  return Deno.realPathSync(chosen);
}

/** Variables whose names say they hold a secret (matched anywhere in the name). */
const SECRET_NAME =
  /API_KEY|AUTH_TOKEN|TOKEN|SECRET|PASSWORD|PASSWD|PRIVATE_KEY|ACCESS_KEY|CREDENTIAL/;

/**
 * Secrets that must never reach the log: the API credentials and every variable named in
 * REIN_SECRET_ENV (comma-separated) at 8 characters or more, and variables whose names say they
 * hold a secret at 16 or more. The higher bar for names guessed by pattern keeps short, common
 * values (a `POSTGRES_PASSWORD=postgres`) from being redacted out of ordinary text, which would
 * also rewrite the model's tool inputs. A named variable too short to redact is reported.
 */
export function secretValues(env: RuntimeEnv, onNotice: (message: string) => void): string[] {
  const named = new Set(["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"]);
  for (const name of (env.get("REIN_SECRET_ENV") ?? "").split(",")) {
    if (name.trim()) named.add(name.trim());
  }
  const values: string[] = [];
  for (const [name, value] of Object.entries(env.toObject())) {
    if (name === "REIN_SECRET_ENV") continue; // a list of names, not a secret
    if (named.has(name)) {
      if (value.length >= 8) values.push(value);
      else if (value) {
        onNotice(`${name} is shorter than 8 characters, so it cannot be redacted from the log`);
      }
    } else if (SECRET_NAME.test(name) && value.length >= 16) {
      values.push(value);
    }
  }
  return values;
}

/**
 * Keep the workspace's `.rein/` out of git without touching the user's own .gitignore: a
 * `.gitignore` of `*` inside it. Only for the default log location.
 */
export async function ignoreLogDirectory(logPath: string, workspace: string): Promise<void> {
  if (logPath !== defaultLogPath(workspace)) return;
  const ignore = resolve(workspace, ".rein", ".gitignore");
  try {
    Deno.lstatSync(ignore);
    return; // the usual case, on the start-up path: one syscall
  } catch {
    // not there yet: create it
  }
  await Deno.mkdir(resolve(workspace, ".rein"), { recursive: true });
  try {
    await Deno.writeTextFile(ignore, "# rein's event log and state; not for version control\n*\n", {
      createNew: true,
    });
  } catch (error) {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  }
}

/** Open the log, fold it, and wire the live effects: the Anthropic model, the tools, the clock. */
export async function openRuntime(options: {
  workspace: string;
  logPath: string;
  env: RuntimeEnv;
  onNotice: (message: string) => void;
}): Promise<Runtime> {
  const { workspace, env } = options;
  await ignoreLogDirectory(options.logPath, workspace);
  const state = initialState();
  const store = await openJsonlStore(options.logPath, {
    clock: () => new Date(),
    secrets: secretValues(env, options.onNotice),
    onEvent: (event) => foldLogged(state, event, options.logPath),
    onNotice: options.onNotice,
  });
  const tools = createBaseTools({
    workspace,
    protectedPaths: [resolve(options.logPath, ".."), options.logPath],
  });
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...(env.get("REIN_RETRY_BASE_MS")
      ? { baseDelayMs: Number(env.get("REIN_RETRY_BASE_MS")) }
      : {}),
  };
  const deps: SessionDeps = {
    store,
    state,
    model: createAnthropicModel({
      apiKey: env.get("ANTHROPIC_API_KEY"),
      authToken: env.get("ANTHROPIC_AUTH_TOKEN"),
      baseURL: env.get("ANTHROPIC_BASE_URL"),
    }),
    tools: createToolExecutor(tools, () => performance.now()),
    toolDefinitions: tools.map(toolDefinition),
    clock: () => new Date(),
    sleep: abortableSleep,
    retryDelay: (attempt, error) => retryDelay(policy, attempt, error, Math.random()),
  };
  return {
    workspace,
    logPath: options.logPath,
    store,
    state,
    tools,
    deps,
    close: () => store.close(),
  };
}
