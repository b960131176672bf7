import { ensureMachineKey, machineKeyPath } from "../core/effects/machine_key.ts";
import type { RuntimeEnv } from "./paths.ts";

/**
 * The id of this machine, from its key outside the workspace (`$XDG_STATE_HOME/rein/` or
 * `~/.local/state/rein/`), made on the first run; null, said once through `onNotice`, when there
 * is no HOME or the key cannot be made (its sessions are then taken as recorded elsewhere when
 * they are resumed, and no snapshot is written). Never throws.
 */
export async function thisMachine(
  env: RuntimeEnv,
  onNotice: (message: string) => void,
): Promise<string | null> {
  const path = machineKeyPath((name) => env.get(name));
  if (path === undefined) {
    onNotice("rein: no HOME, so no machine key: sessions cannot be told from those made elsewhere");
    return null;
  }
  try {
    return (await ensureMachineKey(path)).id;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    onNotice(`rein: cannot make the machine key "${path}" (continuing without): ${detail}`);
    return null;
  }
}
