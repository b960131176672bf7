import { isAbsolute, join } from "../../events/posix_path.ts";
import { sha256Hex } from "../../events/start_point.ts";

/**
 * This machine's key: a random secret kept outside every workspace (never recorded, never shown
 * to the model, hidden from the bash sandbox), and the id derived from it, which sessions record
 * (`SettingsSnapshot.machine`). rein authenticates its snapshots with the secret, so a snapshot
 * the agent or a repository wrote is never trusted; the id tells a session recorded on this
 * machine from one recorded elsewhere (another machine, or a log a repository shipped).
 */
export interface MachineKey {
  /** 32 random bytes, as 64 hex digits. */
  secret: string;
  /** The first 32 hex digits of SHA-256 of a label and the secret: not the secret. */
  id: string;
  /** The file it was read from. */
  path: string;
}

/** The file name of the key in its folder. */
const FILE = "machine-key";
const SECRET = /^[0-9a-f]{64}$/;

/**
 * The folder of rein's machine state: `$XDG_STATE_HOME/rein` when that is an absolute path,
 * else `$HOME/.local/state/rein`; undefined without an absolute HOME. Outside every workspace,
 * and on the bash sandbox's credential list. Pure.
 */
export function machineStateDir(env: (name: string) => string | undefined): string | undefined {
  const state = env("XDG_STATE_HOME");
  if (state && isAbsolute(state)) return join(state, "rein");
  const home = env("HOME");
  return home && isAbsolute(home) ? join(home, ".local", "state", "rein") : undefined;
}

/** The key file in {@link machineStateDir}. Pure. */
export function machineKeyPath(env: (name: string) => string | undefined): string | undefined {
  const dir = machineStateDir(env);
  return dir === undefined ? undefined : join(dir, FILE);
}

/**
 * The key stored at `path`, or undefined when there is none or it cannot be read (no permission,
 * not a key). Never throws.
 */
export async function readMachineKey(path: string): Promise<MachineKey | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch {
    return undefined;
  }
  const secret = text.trim();
  if (!SECRET.test(secret)) return undefined;
  return { secret, id: (await sha256Hex(`rein machine id\n${secret}`)).slice(0, 32), path };
}

/**
 * The key stored at `path`, made first when there is none: 32 random bytes written to a file
 * only its owner may read (0600, in a folder of 0700), linked into place so that two processes
 * making it at once end up with the same one. Throws for an I/O error (and when `path` holds
 * something that is not a key).
 */
export async function ensureMachineKey(path: string): Promise<MachineKey> {
  const found = await readMachineKey(path);
  if (found) return found;
  const dir = join(path, "..");
  await Deno.mkdir(join(dir, ".."), { recursive: true });
  await Deno.mkdir(dir, { mode: 0o700 }).catch((error) => {
    if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
  });
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const secret = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const temp = `${path}.${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(temp, `${secret}\n`, { createNew: true, mode: 0o600 });
    await Deno.chmod(temp, 0o600);
    await Deno.link(temp, path).catch((error) => {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    });
  } finally {
    await Deno.remove(temp).catch(() => {});
  }
  const key = await readMachineKey(path);
  if (key === undefined) throw new Error(`Cannot read the machine key "${path}": not a key`);
  return key;
}

/**
 * The key of this process's machine, from its environment (`XDG_STATE_HOME`, `HOME`): made
 * when missing with `create`, else undefined when missing. Undefined too when the environment
 * may not be read (the read-only commands see HOME and XDG_STATE_HOME only) or, without
 * `create`, when the file cannot be read. Throws only for an I/O error while making it.
 */
export async function processMachineKey(
  options: { create?: boolean } = {},
): Promise<MachineKey | undefined> {
  const path = machineKeyPath(processEnv);
  if (path === undefined) return undefined;
  return options.create ? await ensureMachineKey(path) : await readMachineKey(path);
}

/** HMAC-SHA-256 of `text` under the key's secret, as hex. */
export async function signText(key: MachineKey, text: string): Promise<string> {
  const raw = new Uint8Array(key.secret.match(/../g)!.map((pair) => parseInt(pair, 16)));
  const hmac = await crypto.subtle.importKey(
    "raw",
    raw,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", hmac, new TextEncoder().encode(text)),
  );
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A variable of this process, or undefined when it is unset or may not be read. */
function processEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}
