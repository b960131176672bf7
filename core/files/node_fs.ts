/**
 * Node's `open` and its flags, loaded when a file is first opened through them rather than when
 * rein starts: Deno loads its Node compatibility layer for `node:fs` (tens of milliseconds),
 * which a run that opens no file that way never needs. Deno's own `Deno.open` takes no
 * `O_NOFOLLOW` or `O_NONBLOCK`, which the confined and verified opens need.
 *
 * @module
 */
import type { constants as Constants } from "node:fs";
import type { open as Open } from "node:fs/promises";

/** What {@link nodeFs} resolves to. */
export interface NodeFs {
  constants: typeof Constants;
  open: typeof Open;
}

let loading: Promise<NodeFs> | undefined;

/** `node:fs`'s constants and `node:fs/promises`'s open, loaded once, on first use. */
export function nodeFs(): Promise<NodeFs> {
  loading ??= Promise.all([import("node:fs"), import("node:fs/promises")]).then((
    [fs, promises],
  ) => ({ constants: fs.constants, open: promises.open }));
  return loading;
}
