import { MemoryEventStore } from "../events/memory_store.ts";
import type { Envelope } from "../events/event_types.ts";
import { type FakeAnthropic, type FakeScript, startFakeAnthropic } from "./fake_anthropic.ts";
import { createAnthropicModel } from "../core/effects/anthropic_model.ts";
import { DEFAULT_RETRY_POLICY, retryDelay } from "../core/recovery/retry.ts";
import { AgentSession, type SessionDeps } from "../core/loop/agent_loop.ts";
import { abortableSleep } from "../core/effects/sleep.ts";
import { evolve, initialState } from "../core/state/state.ts";
import { createToolExecutor } from "../core/tools/executor.ts";
import { createBaseTools } from "../core/tools/base_tools.ts";
import { toolDefinition } from "../core/tools/schema.ts";

/** A live session against the fake HTTP model, with real tools in a temp workspace. */
export interface TestSession extends AsyncDisposable {
  fake: FakeAnthropic;
  workspace: string;
  store: MemoryEventStore;
  deps: SessionDeps;
  session: AgentSession;
  /** Every event appended so far. */
  events(): Envelope[];
  /** A second session object over the same log, as a restarted process would get. */
  reopen(): AgentSession;
}

/** Start a fake server with `script`, a temp workspace, a memory log and a new session. */
export async function startTestSession(
  script: FakeScript,
  options: { maxAttempts?: number } = {},
): Promise<TestSession> {
  const fake = await startFakeAnthropic({ script });
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-test-" }));
  const state = initialState();
  const store = new MemoryEventStore({ clock: () => new Date(), onEvent: (e) => evolve(state, e) });
  const tools = createBaseTools({ workspace });
  const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1, maxAttempts: options.maxAttempts ?? 4 };
  const deps: SessionDeps = {
    store,
    state,
    model: createAnthropicModel({ baseURL: fake.url, apiKey: "sk-ant-test-key-0123456789" }),
    tools: createToolExecutor(tools, () => performance.now()),
    toolDefinitions: tools.map(toolDefinition),
    clock: () => new Date(),
    sleep: abortableSleep,
    retryDelay: (attempt, error) => retryDelay(policy, attempt, error, Math.random()),
  };
  const session = await AgentSession.start(deps, {
    id: "session-1",
    model: "claude-test",
    workspace,
    maxTokens: 1024,
    platform: "linux x86_64",
  });
  return {
    fake,
    workspace,
    store,
    deps,
    session,
    events: () => [...store.events],
    reopen: () => AgentSession.open(deps, "session-1"),
    async [Symbol.asyncDispose]() {
      await fake.close();
      await Deno.remove(workspace, { recursive: true });
    },
  };
}

/** The types of a list of events, for compact assertions. */
export function types(events: readonly Envelope[]): string[] {
  return events.map((event) => event.type);
}
