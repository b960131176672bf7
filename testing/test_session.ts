import { MemoryEventStore } from "../events/memory_store.ts";
import type { Envelope } from "../events/event_types.ts";
import { createHarness, type Harness } from "../core/harness.ts";
import type { AgentLoop } from "../core/loop/agent_loop.ts";
import type { Mechanism } from "../core/mechanism.ts";
import { liveEffects } from "../core/runner/live_effects.ts";
import { type FakeAnthropic, type FakeScript, startFakeAnthropic } from "./fake_anthropic.ts";

/** A live session against the fake HTTP model, with real tools in a temp workspace. */
export interface TestSession extends AsyncDisposable {
  fake: FakeAnthropic;
  workspace: string;
  store: MemoryEventStore;
  harness: Harness;
  session: AgentLoop;
  /** Every event appended so far. */
  events(): Envelope[];
  /** A second loop over the same log and agent, as a restarted process would get. */
  reopen(): AgentLoop;
}

/**
 * Start a fake server with `script`, a temp workspace, a memory log and a new session, wired by
 * the same composition root as the CLI (`createHarness`) with live effects.
 */
export async function startTestSession(
  script: FakeScript,
  options: { maxAttempts?: number; mechanisms?: readonly Mechanism[] } = {},
): Promise<TestSession> {
  const fake = await startFakeAnthropic({ script });
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-test-" }));
  let store: MemoryEventStore | undefined;
  const harness = await createHarness({
    openStore: (onEvent, { eventTypes }) =>
      store = new MemoryEventStore({ clock: () => new Date(), onEvent, eventTypes }),
    workspace,
    effects: liveEffects({
      baseURL: fake.url,
      apiKey: "sk-ant-test-key-0123456789",
      retry: { baseDelayMs: 1, maxAttempts: options.maxAttempts ?? 4 },
    }),
    ...(options.mechanisms ? { mechanisms: options.mechanisms } : {}),
  });
  const session = await harness.startSession({
    id: "session-1",
    model: "claude-test",
    workspace,
    maxTokens: 1024,
    platform: "linux x86_64",
  });
  const memory = store as MemoryEventStore;
  return {
    fake,
    workspace,
    store: memory,
    harness,
    session,
    events: () => [...memory.events],
    reopen: () => harness.openSession("session-1"),
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
