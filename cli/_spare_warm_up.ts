import { reinCatalogProjections, reinFeatures } from "../core/harness.ts";
import { withoutNodeProcess } from "../core/effects/anthropic_model.ts";
import { parseSkill } from "../core/skills/skill.ts";
import { loadTimersNow } from "./_load_timers.ts";

/**
 * What a warm spare (cli/teammate_spare.ts) pays before it is told who it is: what every
 * teammate's start costs the same whatever its session, name, settings or log, so that its first
 * model request does not wait for it. Only loading and pure work: it reads no file, writes
 * nothing, starts no process and asks no model; what it leaves behind is loaded code, never a
 * value the teammate uses (the teammate builds its own of each).
 * - Node's timers module (cli/_load_timers.ts): the model SDK sets a timer on every request.
 * - Deno's process API (a lazy part of `Deno`): the sandbox's first probe starts a process.
 * - Node's crypto module: the request digests use it from the second request on
 *   (core/request/_sha256.ts), while the first reply is read.
 * - The model SDK, and a client of it built as the model client builds one (no request).
 * - rein's mechanisms as the log's catalog and the session's features list them, and a skill's
 *   front matter parsed (YAML): their code compiled, not their values kept.
 */
export async function warmUpSpare(): Promise<void> {
  loadTimersNow();
  void Deno.Command;
  reinCatalogProjections();
  reinFeatures();
  parseSkill("/warm-up/SKILL.md", "---\nname: warm-up\ndescription: Warm up\n---\nBody.\n");
  const [{ default: Sdk }] = await Promise.all([
    import("@anthropic-ai/sdk"),
    import("node:crypto"),
  ]);
  // A loopback address nothing is asked of: the client only holds it.
  withoutNodeProcess(() =>
    new Sdk({ apiKey: "warm-up", baseURL: "http://127.0.0.1:9", maxRetries: 0 })
  );
}
