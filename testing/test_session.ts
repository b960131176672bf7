import { MemoryEventStore } from "../events/memory_store.ts";
import { join } from "node:path";
import type { Envelope, JobSettings, PermissionFlags } from "../events/event_types.ts";
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
  /** What the mechanisms reported while reading their files (with `recordSettings`). */
  notices: string[];
}

/** Options of {@link startTestSession}. */
export interface TestSessionOptions {
  maxAttempts?: number;
  /** The wall clock (the machine's unless given): session start, event times, cron readings. */
  clock?: () => Date;
  mechanisms?: readonly Mechanism[];
  /** Wraps every mechanism before the harness uses it (`HarnessOptions.wrapMechanism`). */
  wrapMechanism?: (mechanism: Mechanism) => Mechanism;
  /** Files written into the workspace before the session starts, by relative path. */
  workspaceFiles?: Record<string, string>;
  /**
   * Record the session as the CLI does: a settings snapshot (a project `settings.json` holding
   * `settings`, and `flags`) and the mechanisms' files read from the workspace. Without it the
   * session is like one recorded before rein had settings (no permissions, todos or subagents).
   */
  recordSettings?: {
    settings?: unknown;
    flags?: PermissionFlags;
    /** The compaction environment recorded (`CLAUDE_CODE_AUTO_COMPACT_WINDOW`…); none by default. */
    env?: Record<string, string>;
    /** Background jobs' settings recorded; without them the session has no background jobs. */
    jobs?: JobSettings;
    /** False: recorded as a rein before cron recorded it (no cron without `jobs`); default true. */
    cronTools?: boolean;
    /**
     * The session's features (`settings.features`); without them they are derived from the rest,
     * as for a session recorded before the list (`sessionFeatures`).
     */
    features?: string[];
  };
}

/**
 * Start a fake server with `script`, a temp workspace, a memory log and a new session, wired by
 * the same composition root as the CLI (`createHarness`) with live effects.
 */
export async function startTestSession(
  script: FakeScript,
  options: TestSessionOptions = {},
): Promise<TestSession> {
  const fake = await startFakeAnthropic({ script });
  const workspace = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-test-" }));
  for (const [path, content] of Object.entries(options.workspaceFiles ?? {})) {
    await Deno.mkdir(join(workspace, path, ".."), { recursive: true });
    await Deno.writeTextFile(join(workspace, path), content);
  }
  let store: MemoryEventStore | undefined;
  const harness = await createHarness({
    openStore: (onEvent, { eventTypes }) =>
      store = new MemoryEventStore({
        clock: options.clock ?? (() => new Date()),
        onEvent,
        eventTypes,
      }),
    workspace,
    effects: {
      ...liveEffects({
        baseURL: fake.url,
        apiKey: "sk-ant-test-key-0123456789",
        retry: { baseDelayMs: 1, maxAttempts: options.maxAttempts ?? 4 },
      }),
      ...(options.clock ? { clock: options.clock } : {}),
    },
    ...(options.mechanisms ? { mechanisms: options.mechanisms } : {}),
    ...(options.wrapMechanism ? { wrapMechanism: options.wrapMechanism } : {}),
  });
  const notices: string[] = [];
  const recorded = options.recordSettings;
  const session = await harness.startSession({
    id: "session-1",
    model: "claude-test",
    workspace,
    maxTokens: 1024,
    platform: "linux x86_64",
    ...(recorded === undefined ? {} : {
      settings: {
        sources: [{
          scope: "project",
          path: join(workspace, ".claude", "settings.json"),
          text: JSON.stringify(recorded.settings ?? {}),
        }],
        flags: recorded.flags ?? {},
        home: "/nonexistent-home",
        interactive: false,
        env: recorded.env ?? {},
        ...(recorded.cronTools === false ? {} : { cronTools: true }),
        ...(recorded.jobs ? { jobs: recorded.jobs } : {}),
        ...(recorded.features ? { features: recorded.features } : {}),
      },
      files: await harness.readFiles({
        workspace,
        home: undefined,
        onNotice: (notice) => notices.push(notice),
      }),
    }),
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
    notices,
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
