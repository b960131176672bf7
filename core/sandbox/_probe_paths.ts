/** What a path is, seen from the host: its kind, and a directory's real path, or absent. */
export interface ProbedPath {
  real: string;
  kind: "directory" | "file";
}

/**
 * What each of `paths` is, or undefined where nothing is. Deno answers where rein may read;
 * under the launcher's narrowed `--allow-read` (which keeps `~/.ssh` and the like out of the
 * agent's own reach) one bash call answers for the rest, so a credential rein cannot read is
 * still found and hidden from commands.
 */
export async function probePaths(paths: readonly string[]): Promise<(ProbedPath | undefined)[]> {
  const results: (ProbedPath | undefined | "ask")[] = await Promise.all(paths.map(async (path) => {
    // Asked first: a refused stat builds an error with its stack, dozens of them per start.
    if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") return "ask";
    try {
      // One stat answers for what is there; only a directory needs its real path.
      const info = await Deno.stat(path);
      if (!info.isDirectory) return { real: path, kind: "file" } as const;
      return { real: await Deno.realPath(path), kind: "directory" } as const;
    } catch (error) {
      return error instanceof Deno.errors.NotCapable ? "ask" : undefined;
    }
  }));
  const asked = paths.filter((_, i) => results[i] === "ask");
  if (asked.length === 0) return results as (ProbedPath | undefined)[];
  // No program but bash itself for what is there (a fork costs more than the whole loop): `cd -P`
  // leaves a directory's real path in $PWD; realpath only where cd is refused. A file's real
  // path is not needed (as in the branch above).
  const script = 'for p; do if [ -d "$p" ]; then ' +
    'if cd -P -- "$p" 2>/dev/null; then r=$PWD; else r=$(realpath -- "$p"); fi; ' +
    'printf "d %s\\0" "$r"; ' +
    'elif [ -e "$p" ]; then printf "f %s\\0" "$p"; ' +
    'else printf -- "-\\0"; fi; done';
  const output = await new Deno.Command("bash", {
    args: ["-c", script, "rein-probe", ...asked],
    stdin: "null",
    stderr: "null",
  }).output().catch(() => undefined);
  const answers = output?.success ? new TextDecoder().decode(output.stdout).split("\0") : [];
  let next = 0;
  return results.map((result) => {
    if (result !== "ask") return result;
    const answer = answers[next++] ?? "-";
    if (answer === "-" || answer.length < 3) return undefined;
    return { kind: answer[0] === "d" ? "directory" : "file", real: answer.slice(2) };
  });
}
