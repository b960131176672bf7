import { dirname, join } from "../../events/posix_path.ts";
import { killGroup } from "../tools/kill_group.ts";
import { spawnInOwnSession } from "../tools/own_session_command.ts";
import { badGitUrl, type GitPlace } from "./marketplace.ts";

/** Runs `git` with `args` in `cwd`: its exit code and what it wrote to stderr. */
export type GitRunner = (args: string[], cwd: string) => Promise<{ code: number; stderr: string }>;

/** How long one git command may take before it is stopped (a host that drops packets). */
export const CLONE_TIMEOUT_MS = 60_000;

/**
 * rein's own folder of cloned marketplaces and plugins: `$XDG_CACHE_HOME/rein/plugins`, else
 * `~/.cache/rein/plugins`; undefined without an absolute home. Everything in it can be cloned
 * again from its URL. Pure.
 */
export function reinPluginCache(
  home: string | undefined,
  cacheHome: string | undefined,
): string | undefined {
  if (cacheHome?.startsWith("/")) return join(cacheHome, "rein", "plugins");
  return home?.startsWith("/") ? join(home, ".cache", "rein", "plugins") : undefined;
}

/**
 * The folder in `parent` that holds the clone of `place`, named `<name>-<12 hex digits of the
 * URL, ref and commit>`, so a changed source gets a clone of its own. `name` is a checked
 * plugin or marketplace name (no `/`, no `..`).
 */
export async function cloneFolder(parent: string, name: string, place: GitPlace): Promise<string> {
  const key = JSON.stringify([place.url, place.ref ?? "", place.sha ?? ""]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key));
  const hex = [...new Uint8Array(digest).slice(0, 6)]
    .map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return join(parent, `${name}-${hex}`);
}

/**
 * The clone of `place` at `folder`: used as it is when it is there already (no network), else
 * cloned with `git clone` into a temporary folder beside it and renamed into place, so an
 * interrupted clone is never taken for a whole one. The URL is checked again (`badGitUrl`) and
 * given after `--`, never as an option; git never asks for a password (see
 * {@link runGitCommand}), never uses a remote helper (`protocol.ext.allow=never`), and runs in
 * the cache's folder, never in the workspace. A clone that fails or takes longer than
 * {@link CLONE_TIMEOUT_MS} comes back with the first line git gave. Never throws.
 */
export async function cloneOnce(
  place: GitPlace,
  folder: string,
  runGit: GitRunner = runGitCommand,
): Promise<{ ok: true } | { ok: false; why: string }> {
  if (await isFolder(join(folder, ".git"))) return { ok: true };
  const bad = badGitUrl(place.url);
  if (bad !== undefined) return { ok: false, why: bad };
  const parent = dirname(folder);
  const temporary = `${folder}.partial-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await Deno.mkdir(parent, { recursive: true });
    const clone = await runGit([
      "-c",
      "protocol.ext.allow=never",
      "clone",
      "--quiet",
      "--no-recurse-submodules",
      // Only the newest commit, unless a given one is to be checked out.
      ...(place.sha === undefined ? ["--depth=1"] : []),
      ...(place.ref === undefined ? [] : [`--branch=${place.ref}`]),
      "--",
      place.url,
      temporary,
    ], parent);
    if (clone.code !== 0) return { ok: false, why: firstLine(clone.stderr, clone.code) };
    if (place.sha !== undefined) {
      const checkout = await runGit(
        ["-C", temporary, "checkout", "--quiet", "--detach", place.sha, "--"],
        parent,
      );
      if (checkout.code !== 0) return { ok: false, why: firstLine(checkout.stderr, checkout.code) };
    }
    await Deno.rename(temporary, folder);
    return { ok: true };
  } catch (error) {
    if (await isFolder(join(folder, ".git"))) return { ok: true };
    return { ok: false, why: error instanceof Error ? error.message : String(error) };
  } finally {
    await Deno.remove(temporary, { recursive: true }).catch(() => {});
  }
}

/**
 * Runs the `git` on the PATH in a session of its own (no terminal: neither git nor ssh can ask
 * for a password or a host key), with `GIT_TERMINAL_PROMPT=0`, and stops it and everything it
 * started after {@link CLONE_TIMEOUT_MS}. Never throws.
 */
export async function runGitCommand(
  args: string[],
  cwd: string,
): Promise<{ code: number; stderr: string }> {
  let child: Deno.ChildProcess;
  try {
    child = spawnInOwnSession("git", {
      args,
      cwd,
      env: { GIT_TERMINAL_PROMPT: "0" },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    });
  } catch (error) {
    return { code: 1, stderr: `cannot run git: ${error instanceof Error ? error.message : error}` };
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid).catch(() => {});
  }, CLONE_TIMEOUT_MS);
  try {
    const output = await child.output();
    if (timedOut) return { code: 1, stderr: `git was stopped after ${CLONE_TIMEOUT_MS / 1000} s` };
    return { code: output.code, stderr: new TextDecoder().decode(output.stderr) };
  } finally {
    clearTimeout(timer);
  }
}

function firstLine(stderr: string, code: number): string {
  const line = stderr.split("\n").map((text) => text.replace(/^(fatal|error): /, "").trim())
    .find((text) => text !== "");
  return line ?? `git exited with ${code}`;
}

async function isFolder(path: string): Promise<boolean> {
  return await Deno.stat(path).then((info) => info.isDirectory, () => false);
}
