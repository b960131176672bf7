/**
 * One bash call of `echo hi` through the bash tool, sandboxed (bwrap over bash, a PID namespace
 * per call) and unconfined (setpriv, a supervisor bash and bash): `deno bench --allow-all
 * bench/sandbox_bench.ts`. Target: the sandboxed median at or under 5 ms. The sandbox is the one
 * rein builds for a workspace with a `.rein/` directory and the current user's home; the
 * teammate's (confined: only the system's folders and the workspace shown) must be no slower.
 * @module
 */
import { resolveSandbox } from "../core/sandbox/resolve_sandbox.ts";
import { DEFAULT_SANDBOX_SETTINGS } from "../core/sandbox/sandbox_settings.ts";
import { createBashTool } from "../core/tools/bash.ts";
import { callContext } from "../testing/tool_helpers.ts";

const workspace = await Deno.makeTempDir({ prefix: "rein_sandbox_bench_" });
const resolved = await resolveSandbox({
  settings: DEFAULT_SANDBOX_SETTINGS,
  workspace,
  readOnly: [`${workspace}/.rein`],
  home: Deno.env.get("HOME"),
  env: Deno.env.toObject(),
});
const confined = await resolveSandbox({
  settings: DEFAULT_SANDBOX_SETTINGS,
  workspace,
  readOnly: [`${workspace}/.rein`],
  home: Deno.env.get("HOME"),
  env: Deno.env.toObject(),
  confined: true,
});
const context = callContext();
const unconfined = createBashTool({ workspace });
globalThis.addEventListener("unload", () => Deno.removeSync(workspace, { recursive: true }));

Deno.bench({
  name: "bash echo hi, unconfined (setpriv supervisor)",
  group: "bash call",
  baseline: true,
  async fn() {
    await unconfined.run({ command: "echo hi" }, context);
  },
});

Deno.bench({
  name: "bash echo hi, sandboxed (bwrap)",
  group: "bash call",
  ignore: !(resolved.ok && resolved.sandbox),
  async fn() {
    const sandbox = resolved.ok ? resolved.sandbox : undefined;
    await createBashTool({ workspace, ...(sandbox ? { sandbox } : {}) }).run(
      { command: "echo hi" },
      context,
    );
  },
});

Deno.bench({
  name: "bash echo hi, sandboxed and confined (a teammate's bwrap)",
  group: "bash call",
  ignore: !(confined.ok && confined.sandbox),
  async fn() {
    const sandbox = confined.ok ? confined.sandbox : undefined;
    await createBashTool({ workspace, ...(sandbox ? { sandbox } : {}) }).run(
      { command: "echo hi" },
      context,
    );
  },
});
