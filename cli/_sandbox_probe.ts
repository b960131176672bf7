import { join } from "../events/posix_path.ts";
import type { BashSandbox } from "../core/tools/bash.ts";
import {
  confirmSandbox,
  resolveSandbox,
  type SandboxOptions,
  type SandboxResolution,
} from "../core/sandbox/resolve_sandbox.ts";

/**
 * Where the last probe's verdict is kept: in the temp directory, as a fact about this machine
 * (not about a session). A forged "ok" only skips the probe: bash still runs in the sandbox.
 */
function probeFile(tmpDir: string): string {
  return join(tmpDir, "rein-sandbox-probe.json");
}

/** How bash runs in this run: as recorded with the session, and as each call finds it. */
export interface RunSandbox {
  /** The resolution the session records (and its system prompt describes). */
  resolution: SandboxResolution;
  /**
   * The sandbox bash calls and project hooks run in: probed when the first of them needs it,
   * where the recorded resolution trusted an earlier probe. Undefined: unconfined.
   */
  confirmed: PromiseLike<BashSandbox | undefined>;
}

/**
 * The sandbox for this run. Starting bwrap to check it works costs a few milliseconds on the way
 * to the first request, so a verdict from an earlier run on this machine is trusted for the
 * record, and bwrap is probed when the first command needs it: if it no longer works, commands
 * run unconfined (as without bwrap) and `onNotice` says so once. The verdict is kept for the
 * next run. A machine's first run, a required sandbox and a failed earlier probe wait for the
 * probe.
 */
export async function sandboxForRun(
  options: SandboxOptions,
  tmpDir: string,
  onNotice: (message: string) => void,
): Promise<RunSandbox> {
  const file = probeFile(tmpDir);
  const trusted = await Deno.readTextFile(file).then(
    (text) => JSON.parse(text)?.ok === true,
    () => false,
  );
  const record = (resolution: { ok: boolean; sandbox?: BashSandbox | undefined }) =>
    Deno.writeTextFile(file, `${JSON.stringify({ ok: resolution.ok && !!resolution.sandbox })}\n`)
      .catch(() => {});
  if (!trusted || options.settings.required || !options.settings.enabled) {
    const resolution = await resolveSandbox(options);
    if (options.settings.enabled) await record(resolution);
    const sandbox = resolution.ok ? resolution.sandbox : undefined;
    return { resolution, confirmed: Promise.resolve(sandbox) };
  }
  const resolution = await resolveSandbox({ ...options, trustProbe: true });
  // What the first command waits for: bwrap started once on the sandbox prepared above (its
  // mounts and the credential paths found are not worked out twice).
  const confirm = async (): Promise<BashSandbox | undefined> => {
    const checked = resolution.ok && resolution.sandbox
      ? await confirmSandbox(resolution.config)
      : await resolveSandbox(options).then((again) =>
        again.ok && again.sandbox
          ? { ok: true as const, sandbox: again.sandbox }
          : { ok: false as const, problem: again.ok ? again.notice ?? "" : again.error.message }
      );
    await record({ ok: checked.ok, sandbox: checked.ok ? checked.sandbox : undefined });
    if (checked.ok) return checked.sandbox;
    onNotice(`The sandbox worked on an earlier run but not now: ${checked.problem}`);
    return undefined;
  };
  let probing: Promise<BashSandbox | undefined> | undefined;
  const confirmed: PromiseLike<BashSandbox | undefined> = {
    then(onValue, onError) {
      probing ??= confirm();
      return probing.then(onValue, onError);
    },
  };
  return { resolution, confirmed };
}
