import { join } from "node:path";
import {
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

/**
 * The sandbox for this run. Starting bwrap to check it works costs a few milliseconds on the way
 * to the first request, so a verdict from an earlier run on this machine is trusted and bwrap
 * is probed again in the background (the verdict is kept for the next run). The first run, a
 * required sandbox and a failed earlier probe wait for the probe.
 */
export async function sandboxForRun(
  options: SandboxOptions,
  tmpDir: string,
): Promise<SandboxResolution> {
  const file = probeFile(tmpDir);
  const trusted = await Deno.readTextFile(file).then(
    (text) => JSON.parse(text)?.ok === true,
    () => false,
  );
  const record = (resolution: SandboxResolution) =>
    Deno.writeTextFile(file, `${JSON.stringify({ ok: resolution.ok && !!resolution.sandbox })}\n`)
      .catch(() => {});
  if (!trusted || options.settings.required || !options.settings.enabled) {
    const resolution = await resolveSandbox(options);
    if (options.settings.enabled) await record(resolution);
    return resolution;
  }
  // Again once this run is under way (not competing with its start), for the next run; this
  // one goes on with the trusted verdict. The timer does not keep rein alive.
  const later = setTimeout(() => resolveSandbox(options).then(record, () => {}), 2_000);
  Deno.unrefTimer(later);
  return await resolveSandbox({ ...options, trustProbe: true });
}
