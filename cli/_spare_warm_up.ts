import { createHarness, reinCatalogProjections, reinFeatures } from "../core/harness.ts";
import { MemoryEventStore } from "../events/memory_store.ts";
import { ModelCancelledError } from "../core/effects/model_client.ts";
import { abortableSleep } from "../events/abortable_sleep.ts";
import { withoutNodeProcess } from "../core/effects/anthropic_model.ts";
import { parseSkill } from "../core/skills/skill.ts";
import { settingsSnapshot } from "../core/runner/settings_snapshot.ts";
import { credentialPaths } from "../core/sandbox/credential_paths.ts";
import { machineKeyPath } from "../core/effects/machine_key.ts";
import { loadTimersNow } from "./_load_timers.ts";

/** The folder the rehearsal names: it does not exist, and nothing is read or made there. */
const NOWHERE = "/nonexistent/rein-warm-up";

/** A skill's front matter in the shapes rein's own skills use. */
const SKILL = [
  "---",
  "name: warm-up",
  "description: Warm up (the parser's paths: plain, quoted, folded and listed values).",
  'argument-hint: "[what]"',
  "allowed-tools: [Read, Grep]",
  "when_to_use: >-",
  "  When a spare waits.",
  "paths:",
  "  - src/**",
  "---",
  "Body.",
  "",
].join("\n");

/**
 * What a warm spare (cli/teammate_spare.ts) pays before it is told who it is: what every
 * teammate's start costs the same whatever its session, name, settings or log, so that its first
 * model request does not wait for it. Its steps stop once `stop` aborts (the spare has been told
 * who it is, or let go: the teammate starts at once). Only loading and work in memory: it reads
 * no file of the person's or the session's, writes nothing, starts no process and sends nothing;
 * what it leaves behind is loaded and compiled code, never a value the teammate uses (it builds
 * its own of each).
 * - Node's timers module (cli/_load_timers.ts): the model SDK sets a timer on every request.
 * - Deno's lazily loaded parts a start uses: its process and permissions APIs (the sandbox's
 *   probe), `fetch` and its headers, requests and responses (the model request).
 * - Node's crypto module: the request digests use it from the second request on
 *   (core/request/_sha256.ts), while the first reply is read; Web Crypto's first digest.
 * - Deno's errors for a missing (or not granted) path, rein's pure functions that place the
 *   machine's key and the credentials, and a skill's front matter (YAML), for made-up values.
 * - The model SDK, a client of it built as the model client builds one, and a request built
 *   with it but stopped before it is sent (its signal aborted first: the SDK stops before
 *   `fetch`).
 * - A rehearsal: a harness on a log in memory (no effect but a model that refuses, as a cancelled
 *   call), a session started in it with every feature and no settings, files or folder, and its
 *   first request built, stopped at the model: the fold, the stages, the tools, the system prompt
 *   and the request's assembly run once, so the teammate's run them compiled.
 */
export async function warmUpSpare(stop: AbortSignal): Promise<void> {
  loadTimersNow();
  for (const lazy of [Deno.Command, Deno.permissions, Headers, Request, Response, fetch, URL]) {
    void lazy;
  }
  // What the log's catalog is folded with, a skill's front matter (YAML), where the machine's key
  // and the credentials would be for a home that does not exist.
  reinCatalogProjections();
  parseSkill(`${NOWHERE}/SKILL.md`, SKILL);
  machineKeyPath((name) => name === "HOME" ? NOWHERE : undefined);
  credentialPaths(NOWHERE, {});
  // Web Crypto's first digest (the machine's id is one), and Deno's errors for a path that is
  // not there (or not granted): a start meets many.
  await crypto.subtle.digest("SHA-256", new Uint8Array(32));
  await Deno.readTextFile(`${NOWHERE}/none`).catch(() => {});
  await Deno.realPath(`${NOWHERE}/none`).catch(() => {});
  if (stop.aborted) return;
  const [{ default: Sdk }] = await Promise.all([
    import("@anthropic-ai/sdk"),
    import("node:crypto"),
  ]);
  if (stop.aborted) return;
  // A loopback address nothing is asked of: the client only holds it.
  const client = withoutNodeProcess(() =>
    new Sdk({ apiKey: "warm-up", baseURL: "http://127.0.0.1:9", maxRetries: 0 })
  );
  // A request as the model client streams one, its signal aborted before: the SDK builds it (its
  // body, headers, tracing) and stops before `fetch`, so nothing leaves this process.
  const stopped = new AbortController();
  stopped.abort();
  await client.messages.stream(
    {
      model: "warm-up",
      max_tokens: 1,
      system: [{ type: "text", text: "Warm up." }],
      tools: [{ name: "warm_up", description: "Warm up.", input_schema: { type: "object" } }],
      messages: [{ role: "user", content: [{ type: "text", text: "Warm up." }] }],
    },
    { signal: stopped.signal },
  ).finalMessage().catch(() => {});
  if (!stop.aborted) await rehearse();
}

/**
 * A session in memory whose first request is built and refused at the model. Its folder does not
 * exist and nothing is read from it: it has no settings, environment or files, so no hook, rule
 * or file of anyone's is involved.
 */
async function rehearse(): Promise<void> {
  const workspace = NOWHERE;
  const clock = () => new Date();
  const harness = await createHarness({
    openStore: (onEvent, { eventTypes }) => new MemoryEventStore({ clock, onEvent, eventTypes }),
    workspace,
    effects: {
      // Refused as a cancelled call is: the turn ends there, nothing is retried.
      model: { send: () => Promise.reject(new ModelCancelledError()) },
      clock,
      monotonicMs: () => performance.now(),
      sleep: abortableSleep,
      retryDelay: () => null,
    },
  });
  try {
    const loop = await harness.startSession({
      id: "warm-up",
      model: "claude-sonnet-4-5",
      workspace,
      maxTokens: 1024,
      platform: "linux x86_64",
      settings: settingsSnapshot({
        sources: [],
        trusted: false,
        home: workspace,
        interactive: false,
        env: () => undefined,
        machine: null,
        features: reinFeatures(),
      }),
      files: [],
    });
    const stop = new AbortController();
    await loop.prompt("Warm up.", { signal: stop.signal, maxTurns: 1 }).catch(() => {});
  } finally {
    await harness.close();
  }
}
