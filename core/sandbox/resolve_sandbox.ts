import { guardGit } from "./_git_facts.ts";
import { probePaths } from "./_probe_paths.ts";
import { isAbsolute, join, relative, resolve } from "../../events/posix_path.ts";
import type { BashSandbox } from "../tools/bash.ts";
import { bwrapArgs, type HiddenPath, type SandboxConfig } from "./bwrap_args.ts";
import { bwrapSandbox } from "./bwrap_sandbox.ts";
import { credentialPaths } from "./credential_paths.ts";
import { hiddenInside, visibleCandidates, visiblePaths } from "./_visible_paths.ts";
import type { SandboxSettings } from "./sandbox_settings.ts";

/** What the sandbox is computed from. */
export interface SandboxOptions {
  /** The `sandbox` settings (`sandboxSettings(settings.other.sandbox).items`). */
  settings: SandboxSettings;
  /** The workspace: writable, and where commands start. */
  workspace: string;
  /**
   * rein's own directories that commands may read but not change: the log's directory. Created
   * when missing, so that a command cannot create one in their place.
   */
  readOnly?: readonly string[];
  /**
   * More directories commands may change (`permissions.additionalDirectories`): relative ones
   * are taken from the workspace, `~/` from `home`. Missing ones are skipped.
   */
  additionalDirectories?: readonly string[];
  /**
   * Whether commands see only what they need of the machine (a teammate's, issue 23): the
   * system's folders, git's configuration in `home`, the workspace and the directories above, all
   * read-only but the writable ones; the home and every other folder are not there. Otherwise
   * (the lead's) the whole root is read-only.
   */
  confined?: boolean | undefined;
  /** The home directory whose credential stores are hidden. */
  home?: string | undefined;
  /** The environment: `XDG_RUNTIME_DIR` and the variables naming credential files. */
  env: Readonly<Record<string, string>>;
  /** The bwrap program: a path, or a name looked up on PATH (default `bwrap`). */
  bwrap?: string;
  /**
   * Trust that bwrap works without starting it (an earlier probe on this machine said so): the
   * caller probes again in the background. Ignored when the sandbox is required.
   */
  trustProbe?: boolean;
}

/**
 * The outcome: a sandbox for the bash tool, or none (bash runs unconfined) with a notice to show
 * the user once, or an error when the settings require a sandbox that cannot run here.
 */
export type SandboxResolution =
  | { ok: true; sandbox: BashSandbox; config: SandboxConfig; notice?: undefined }
  | { ok: true; sandbox?: undefined; notice?: string }
  | { ok: false; error: Error };

const INSTALL_HINT = "install bubblewrap (apt-get install bubblewrap, or dnf install bubblewrap)";

/**
 * Decides how bash runs: computes the sandbox (existing writable directories, git's guarded
 * files in them, the read-only log directory, the credential paths that exist) and checks once
 * that bwrap can really start it (`bwrap … -- true`), since a bwrap on PATH may still be refused
 * namespaces. Creates the read-only directories and git's placeholders when missing. A `.git`
 * the sandbox cannot guard (a symlink) is an error whatever the settings: bash unconfined there
 * would be worse. Never throws.
 */
export async function resolveSandbox(options: SandboxOptions): Promise<SandboxResolution> {
  const { settings } = options;
  if (!settings.enabled) {
    return settings.required
      ? {
        ok: false,
        error: new Error(
          'Invalid settings: "sandbox.required" is true but "sandbox.enabled" is false',
        ),
      }
      : { ok: true };
  }
  let config: SandboxConfig | undefined;
  let problem: string | undefined;
  try {
    const prepared = await sandboxConfig(options);
    if (typeof prepared === "string") {
      return {
        ok: false,
        error: new Error(
          `Cannot guard git's files in the sandbox: ${prepared}; replace it with the directory it ` +
            'points to or a "gitdir:" file, or set "sandbox.enabled": false in your own settings ' +
            "to run bash unconfined",
        ),
      };
    }
    config = prepared;
    problem = options.trustProbe && !settings.required ? undefined : await probe(config);
  } catch (error) {
    problem = `cannot prepare the sandbox (${error instanceof Error ? error.message : error})`;
  }
  if (config && problem === undefined) return { ok: true, sandbox: bwrapSandbox(config), config };
  if (settings.required) {
    return {
      ok: false,
      error: new Error(
        `Cannot run bash in the required sandbox: ${problem}; ${INSTALL_HINT}, ` +
          'or set "sandbox.required": false to run it unconfined',
      ),
    };
  }
  return { ok: true, notice: `${problem}: bash runs unconfined; ${INSTALL_HINT} to confine it` };
}

/** The sandbox's configuration, or why git in it cannot be guarded. */
async function sandboxConfig(options: SandboxOptions): Promise<SandboxConfig | string> {
  const { workspace, home, env } = options;
  const credentials = credentialPaths(home, env);
  const candidates = options.confined ? visibleCandidates(home, options.settings.network) : [];
  // One probe for both (a bash call where rein's own flags do not reach), running while the
  // rest is worked out.
  const probing = probePaths([...credentials, ...candidates]);
  probing.catch(() => {});
  const writable = [await Deno.realPath(workspace)];
  for (const dir of options.additionalDirectories ?? []) {
    const path = home && (dir === "~" || dir.startsWith("~/"))
      ? join(home, dir.slice(1))
      : resolve(workspace, dir);
    const [probed] = await probePaths([path]);
    const real = probed?.kind === "directory" ? probed.real : undefined;
    if (real && !writable.includes(real)) writable.push(real);
  }
  const git = await guardGit(writable, home);
  if (!git.ok) return git.reason;
  for (const { path, kind } of git.plan.create) {
    if (kind === "directory") {
      await Deno.mkdir(path).catch((error) => {
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      });
    } else await Deno.writeTextFile(path, "", { createNew: true }).catch(() => {});
  }
  const readOnly: string[] = [];
  for (const dir of options.readOnly ?? []) {
    // Created when missing (an existing file, such as .git/config, is kept as it is).
    await Deno.mkdir(dir, { recursive: true }).catch((error) => {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    });
    readOnly.push(await Deno.realPath(dir));
  }
  const probed = await probing;
  const found = probed.slice(0, credentials.length).map((entry, i): HiddenPath | undefined =>
    entry === undefined ? undefined : { path: credentials[i] as string, kind: entry.kind }
  );
  // A mask over a writable directory (a credential variable naming the workspace) would hide it.
  const masks = found.filter((entry): entry is HiddenPath =>
    entry !== undefined && !writable.some((dir) => covers(entry.path, dir))
  );
  const visible = options.confined
    ? visiblePaths(candidates, probed.slice(credentials.length), writable[0] as string)
    : undefined;
  // Confined, a credential outside what the sandbox shows is not there to hide.
  const hidden = visible ? hiddenInside(masks, visible, [...writable, ...readOnly]) : masks;
  return {
    bwrap: options.bwrap ?? "bwrap",
    workspace,
    writable,
    gitMounts: git.plan.mounts,
    tripwires: git.plan.tripwires,
    readOnly,
    hidden,
    network: options.settings.network,
    ...visible ? { visible } : {},
  };
}

/**
 * Checks a sandbox that {@link resolveSandbox} prepared trusting an earlier probe
 * (`trustProbe`): starts it once (`bwrap … -- true`) without preparing it again. Resolves to
 * the sandbox, or why it cannot run. Never throws.
 */
export async function confirmSandbox(
  config: SandboxConfig,
): Promise<{ ok: true; sandbox: BashSandbox } | { ok: false; problem: string }> {
  const problem = await probe(config);
  return problem === undefined
    ? { ok: true, sandbox: bwrapSandbox(config) }
    : { ok: false, problem: `${problem}: bash runs unconfined; ${INSTALL_HINT} to confine it` };
}

/** Runs `true` in the sandbox; returns what went wrong, or undefined when it worked. */
async function probe(config: SandboxConfig): Promise<string | undefined> {
  try {
    const { success, code, stderr } = await new Deno.Command(config.bwrap, {
      args: [...bwrapArgs(config), "--", "true"],
      clearEnv: true,
      env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (success) return undefined;
    const reason = new TextDecoder().decode(stderr).trim().split("\n")[0];
    return `bwrap cannot create a sandbox here (${reason || `exit code ${code}`})`;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return config.bwrap === "bwrap" ? "bwrap not found" : `bwrap not found at "${config.bwrap}"`;
    }
    return `bwrap cannot start (${error instanceof Error ? error.message : error})`;
  }
}

/** Whether a mask over `path` would cover `dir`: `path` is `dir` or one of its parents. */
function covers(path: string, dir: string): boolean {
  const rel = relative(path, dir);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
