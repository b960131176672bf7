import type { Envelope } from "../events/event_types.ts";
import type { OutputFormat } from "./headless.ts";
import { type CommandIo, readStdin, stdinLines } from "./io.ts";
import { defaultLogPath, resolveWorkspace, type RuntimeEnv, userPath } from "./paths.ts";
import { openRuntime } from "./runtime.ts";
import { askOnTerminal } from "./_trust.ts";
import { permissionFlagsOf, type PermissionOptions, requireCredentials } from "./run_flags.ts";
import { type HeadlessResult, headlessResult } from "./claude_output.ts";
import { chooseModel, thinkingBudget } from "./model_choice.ts";
import { ignoredFlagNotice } from "./_claude_flags.ts";
import { readInitialize } from "./_initialize.ts";
import { chooseSession, type ChosenSession, newSessionSetup } from "./session_choice.ts";

/**
 * `--setting-sources user,project,local` (any of them, comma-separated; empty: none) as the
 * scopes to read, or undefined when not given. Throws naming a source rein does not know.
 */
export function settingSourcesOf(
  given: string | undefined,
): ("user" | "project" | "local")[] | undefined {
  if (given === undefined) return undefined;
  const names = given.split(",").map((name) => name.trim()).filter((name) => name !== "");
  for (const name of names) {
    if (name !== "user" && name !== "project" && name !== "local") {
      throw new Error(
        `--setting-sources "${given}": "${name}" is not a settings source (user, project, local)`,
      );
    }
  }
  return names as ("user" | "project" | "local")[];
}

/** A session id as `--session-id` takes it. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Flags of `rein agent`. */
export interface AgentFlags extends PermissionOptions {
  print?: string | true | undefined;
  /** A prompt given as an argument: the first one of the REPL, or the prompt of a bare -p. */
  prompt?: string | undefined;
  verbose?: boolean | undefined;
  outputFormat: OutputFormat;
  model?: string | undefined;
  fallbackModel?: string | undefined;
  effort?: string | undefined;
  inputFormat?: "text" | "stream-json" | undefined;
  /**
   * `--permission-prompt-tool stdio`: calls that need a person's permission are asked of the
   * program on the other end of `--input-format stream-json` (the Agent SDK's `canUseTool`).
   */
  permissionPromptTool?: string | undefined;
  debug?: boolean | undefined;
  /** Print the system prompt a new session would start with, and exit. */
  printSystemPrompt?: boolean | undefined;
  /** `--settings FILE`: a settings file above all others. */
  settings?: string | undefined;
  /** `--trust`: apply the folder's own settings without it being trusted (cli/_trust.ts). */
  trust?: boolean | undefined;
  /** `--setting-sources`: which of the user's, project's and local settings files to read. */
  settingSources?: string | undefined;
  /** `--plugin-dir DIR` (repeatable): Claude Code plugin folders to use. */
  pluginDir?: string[] | undefined;
  /** `--mcp-config FILE|JSON` (repeatable) and `--strict-mcp-config`: MCP servers (core/mcp). */
  mcpConfig?: string[] | undefined;
  strictMcpConfig?: boolean | undefined;
  systemPrompt?: string | undefined;
  appendSystemPrompt?: string | undefined;
  sessionId?: string | undefined;
  log?: string | undefined;
  /** `--store URL`: the event log in PostgreSQL instead of the JSONL file (else REIN_STORE). */
  store?: string | undefined;
  workspace?: string | undefined;
  /** A session id (or prefix) to reopen; `true` (no id) asks which, in a terminal. */
  resume?: string | true | undefined;
  continue?: boolean | undefined;
  fork?: string | undefined;
  /** `-w [name]` / `--worktree [name]`: start in a worktree (a name is chosen for `true`). */
  worktree?: string | true | undefined;
  maxTurns?: number | undefined;
  maxBudgetUsd?: number | undefined;
  /** Claude Code flags given that rein accepts and does not act on (see _claude_flags.ts). */
  ignoredFlags?: string[] | undefined;
}

/**
 * `rein agent`: the interactive session, or one headless run with -p. Returns the exit code.
 * With `-p --output-format json|stream-json`, an error before or outside the run is printed as a
 * result object too (and on stderr, as the caller does for every error), so a program reading
 * Claude Code's output always gets one.
 */
export async function agentCommand(
  flags: AgentFlags,
  env: RuntimeEnv,
  io: CommandIo,
): Promise<number> {
  try {
    return await runAgent(flags, env, io);
  } catch (error) {
    const structured = flags.outputFormat === "json" || flags.outputFormat === "stream-json";
    if (flags.print !== undefined && structured) {
      const message = error instanceof Error ? error.message : String(error);
      io.stdout.write(`${JSON.stringify(errorResult(message))}\n`);
    }
    throw error;
  }
}

/** The result object of a run that could not start. Pure. */
export function errorResult(message: string): HeadlessResult {
  return headlessResult({
    reason: "failed",
    rounds: 0,
    message,
    lastText: "",
    stopReason: null,
    sessionId: "",
    usageByModel: {},
    durationMs: 0,
    durationApiMs: 0,
  });
}

async function runAgent(
  flags: AgentFlags,
  env: RuntimeEnv,
  io: CommandIo,
): Promise<number> {
  for (const flag of flags.ignoredFlags ?? []) {
    const notice = ignoredFlagNotice(flag);
    if (notice !== undefined) io.stderr.write(`${notice}\n`);
  }
  const workspace = resolveWorkspace(flags.workspace, env, Deno.cwd());
  const logPath = flags.log ? userPath(flags.log, env, Deno.cwd()) : defaultLogPath(workspace);
  const streamInput = flags.inputFormat === "stream-json";
  // The Agent SDK runs Claude Code with --input-format stream-json and no -p: that is headless.
  const headless = flags.print !== undefined || streamInput;
  let prompt = typeof flags.print === "string" ? flags.print : headless ? flags.prompt : undefined;
  if (prompt !== undefined && !prompt.trim()) {
    throw new Error('Empty prompt: -p needs text, as in -p "fix the test"');
  }
  if (streamInput && flags.outputFormat !== "stream-json") {
    throw new Error(
      "--input-format stream-json needs --output-format stream-json, as Claude Code does",
    );
  }
  const promptTool = flags.permissionPromptTool;
  if (promptTool !== undefined && promptTool !== "stdio") {
    throw new Error(
      `--permission-prompt-tool "${promptTool}": rein asks only over stdio for now ` +
        "(--permission-prompt-tool stdio, the Agent SDK's canUseTool), not through an MCP tool",
    );
  }
  if (promptTool === "stdio" && !streamInput) {
    throw new Error(
      "--permission-prompt-tool stdio needs --input-format stream-json: the answers come on " +
        "standard input",
    );
  }
  if (headless && !streamInput && prompt === undefined && !io.stdinIsTerminal) {
    prompt = (await readStdin()).trim() || undefined;
  }
  const reopening = flags.resume !== undefined || flags.continue === true;
  // The Agent SDK's first line is its initialize request, which carries its system prompt
  // options: read it before the session starts (runStreamInput answers it).
  let input: AsyncIterable<string> | undefined;
  const fromProgram: { systemPrompt?: string; appendSystemPrompt?: string } = {};
  if (streamInput) {
    const { head, lines } = await firstLine(stdinLines());
    input = lines;
    const init = head === undefined ? undefined : readInitialize(head);
    for (const notice of init?.notices ?? []) io.stderr.write(`${notice}\n`);
    if (init?.systemPrompt !== undefined || init?.appendSystemPrompt !== undefined) {
      if (reopening) {
        io.stderr.write(
          "Ignored the initialize request's system prompt: a reopened session keeps the one " +
            "it started with\n",
        );
      } else {
        if (init.systemPrompt !== undefined) fromProgram.systemPrompt = init.systemPrompt;
        if (init.appendSystemPrompt !== undefined) {
          fromProgram.appendSystemPrompt = init.appendSystemPrompt;
        }
      }
    }
  }
  if (reopening) {
    const fixed = [
      ["--effort", flags.effort],
      ["--fallback-model", flags.fallbackModel],
      ["--system-prompt", flags.systemPrompt],
      ["--append-system-prompt", flags.appendSystemPrompt],
      ["--session-id", flags.sessionId],
    ].filter(([, value]) => value !== undefined).map(([name]) => name);
    if (fixed.length > 0) {
      throw new Error(
        `${fixed.join(", ")} ${fixed.length === 1 ? "is" : "are"} set when a session starts, ` +
          "not when it is reopened: start a new session, or --fork this one",
      );
    }
  }
  const permissionFlags = permissionFlagsOf(flags);
  if (headless && !streamInput && prompt === undefined && !reopening && !flags.printSystemPrompt) {
    throw new Error('No prompt: pass one with -p "…" or pipe it on standard input');
  }
  if (!flags.printSystemPrompt) requireCredentials(env);
  const { storeOf } = await import("./store_log.ts");
  const store = storeOf(flags.store, env);
  // The store's URL may hold a password: once read, it leaves the environment that bash, hooks and
  // MCP servers inherit (teammates are given it by their supervisor).
  if (store !== undefined && env.get("REIN_STORE") !== undefined) {
    try {
      Deno.env.delete("REIN_STORE");
    } catch {
      // Without permission to change the environment, nothing inherits more than it could read.
    }
  }
  const runtime = await openRuntime({
    workspace,
    logPath,
    ...(store === undefined ? {} : { store }),
    env,
    onNotice: (message) => io.stderr.write(`${message}\n`),
    settingsFile: flags.settings,
    settingSources: settingSourcesOf(flags.settingSources),
    pluginDirs: (flags.pluginDir ?? []).map((dir) => userPath(dir, env, Deno.cwd())),
    mcpConfig: flags.mcpConfig,
    strictMcpConfig: flags.strictMcpConfig,
    permissionFlags,
    // A program that answers permission prompts asks as a person would.
    interactive: !headless || promptTool === "stdio",
    trust: flags.trust,
    // The REPL in a terminal asks once whether to trust the folder; headless runs do not.
    askTrust: !headless && io.stdinIsTerminal && !flags.printSystemPrompt
      ? askOnTerminal(workspace, (text) => io.stdout.write(text))
      : undefined,
  });
  let chosen: ChosenSession | undefined;
  const stopDebugging = flags.debug
    ? runtime.harness.store.subscribe((event) => io.stderr.write(`${JSON.stringify(event)}\n`))
    : () => {};
  try {
    const { model, maxTokens } = chooseModel({
      flag: flags.model,
      env: env.get("ANTHROPIC_MODEL"),
      setting: runtime.harness.settings?.model,
    });
    const fallbackName = flags.fallbackModel ?? runtime.harness.settings?.fallbackModel;
    const fallbackModel = fallbackName === undefined
      ? undefined
      : chooseModel({ flag: fallbackName }).model;
    const effortSetting = runtime.harness.settings?.other.effortLevel;
    const effort = flags.effort ?? (typeof effortSetting === "string" ? effortSetting : undefined);
    const thinking = effort === undefined ? undefined : thinkingBudget(effort, maxTokens);
    const newId = () => flags.sessionId ?? crypto.randomUUID();
    if (flags.sessionId !== undefined) {
      if (!UUID.test(flags.sessionId)) {
        throw new Error(`Invalid --session-id "${flags.sessionId}": expected a UUID`);
      }
      if (runtime.harness.state.catalog.byId[flags.sessionId]) {
        throw new Error(
          `Session ${flags.sessionId} already exists: reopen it with --resume ${flags.sessionId}`,
        );
      }
    }
    // The command line's prompts win over the ones the program sent in its initialize request.
    const systemPrompt = flags.systemPrompt ?? fromProgram.systemPrompt;
    const appendSystemPrompt = flags.appendSystemPrompt ?? fromProgram.appendSystemPrompt;
    // -w: the new session starts in a worktree, made now unless the log knows it.
    const inWorktree = flags.worktree === undefined ? undefined : await (async () => {
      if (flags.resume !== undefined || flags.continue || flags.fork !== undefined) {
        throw new Error(
          "-w starts a new session: it does not go with --resume, --continue or --fork",
        );
      }
      const { startInWorktree } = await import("./worktree_start.ts");
      const { worktreeSetupOf } = await import("../core/worktrees/mod.ts");
      const setup = worktreeSetupOf(runtime.harness.settings?.other);
      return await startInWorktree(workspace, runtime.harness.state, flags.worktree ?? true, setup);
    })();
    const options = {
      ...(inWorktree ? { place: inWorktree.place } : {}),
      ...(fallbackModel ? { fallbackModel } : {}),
      ...(thinking ? { thinkingBudget: thinking } : {}),
      ...(systemPrompt ? { systemPrompt } : {}),
      ...(appendSystemPrompt ? { appendSystemPrompt } : {}),
    };
    if (flags.printSystemPrompt) {
      const setup = { ...newSessionSetup(runtime, model, maxTokens, newId()), ...options };
      const { system } = runtime.harness.previewRequest(setup);
      io.stdout.write(`${system.map((block) => block.text).join("\n\n")}\n`);
      return 0;
    }
    // Events appended while the session is chosen (session.started of a new session or a fork),
    // so that stream-json shows them too.
    const opening: Envelope[] = [];
    const stopCollecting = runtime.harness.store.subscribe((event) => opening.push(event));
    let resume = flags.resume;
    if (resume === true) {
      if (headless) throw new Error("--resume needs a session id with -p");
      const { pickSession } = await import("./session_picker.ts");
      resume = await pickSession(runtime.harness.state, io);
    }
    try {
      chosen = await chooseSession(runtime, { ...flags, resume }, {
        model,
        maxTokens,
        newId,
        options,
      });
      if (inWorktree?.created !== undefined) {
        // The worktree -w made, the new session's first fact after its start.
        const { id, view } = chosen.session;
        await runtime.harness.store.append([{
          type: "worktree.created",
          session: id,
          agent: view.mainAgent,
          data: inWorktree.created,
        }]);
      }
      const recorded = chosen.session.view.workspace;
      if (chosen.reopened && recorded !== workspace) {
        throw new Error(
          `Session ${chosen.session.id} works in "${recorded}", not in "${workspace}": ` +
            `run rein there, or pass --workspace "${recorded}"`,
        );
      }
      // --model with --resume/--continue switches the reopened session's model, on the record.
      if (chosen.reopened && flags.model !== undefined) {
        await chosen.session.switchModel(model, maxTokens);
      }
    } finally {
      stopCollecting();
    }
    const { session } = chosen;
    const maxTurns = flags.maxTurns ?? null;
    if (headless) {
      const { runHeadless, runStreamInput } = await import("./headless.ts");
      const options = {
        format: flags.outputFormat,
        maxTurns,
        ...(flags.maxBudgetUsd === undefined ? {} : { maxBudgetUsd: flags.maxBudgetUsd }),
        apiKeySource: env.get("ANTHROPIC_API_KEY")
          ? "ANTHROPIC_API_KEY"
          : env.get("ANTHROPIC_AUTH_TOKEN")
          ? "ANTHROPIC_AUTH_TOKEN"
          : "none",
        opening: opening.filter((event) => event.session === session.id),
      };
      if (input !== undefined) {
        const asks = promptTool === "stdio";
        return await runStreamInput(runtime, chosen, { ...options, asks }, input, io);
      }
      return await runHeadless(runtime, chosen, prompt, options, io);
    }
    const { runRepl } = await import("./repl/repl.ts");
    return await runRepl(
      runtime,
      chosen,
      {
        maxTurns,
        model,
        maxTokens,
        ...(flags.maxBudgetUsd === undefined ? {} : { maxBudgetUsd: flags.maxBudgetUsd }),
        ...(flags.prompt?.trim() ? { firstPrompt: flags.prompt.trim() } : {}),
      },
      io,
    );
  } finally {
    stopDebugging();
    chosen?.lease.release();
    await runtime.close();
  }
}

/** The first line of `lines` (undefined when there is none), and all of them again. */
async function firstLine(
  lines: AsyncIterator<string>,
): Promise<{ head: string | undefined; lines: AsyncIterable<string> }> {
  const first = await lines.next();
  const head = first.done ? undefined : first.value;
  return {
    head,
    lines: (async function* () {
      if (head === undefined) return;
      yield head;
      while (true) {
        const next = await lines.next();
        if (next.done) return;
        yield next.value;
      }
    })(),
  };
}
