/**
 * Where the kernel says an open file lies (Linux's `/proc/self/fd/N`), which no rename or swap of
 * symbolic links can fool: the absolute path; `false` when the descriptor names no path on disk
 * (a deleted file, an anonymous one); undefined where it cannot be told (not Linux, no `/proc`,
 * or no permission to read `/proc/self`, which Deno grants only with every permission), so the
 * caller checks by names instead. Never throws.
 */
export async function kernelPathOf(fd: number): Promise<string | false | undefined> {
  if (Deno.build.os !== "linux") return undefined;
  try {
    const path = await Deno.readLink(`/proc/self/fd/${fd}`);
    return path.startsWith("/") && !path.endsWith(" (deleted)") ? path : false;
  } catch {
    return undefined;
  }
}
