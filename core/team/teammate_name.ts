/** Claude Code's rule for a teammate's name. */
export const TEAMMATE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Names that mean the lead, which no teammate may take. */
const RESERVED: ReadonlySet<string> = new Set(["main", "lead", "team-lead"]);

/** A teammate's name, or why the one asked for cannot be one. */
export type NameChoice = { name: string } | { error: string };

/**
 * The name a teammate asked for as `wanted` gets in a session whose agents are `taken`: `wanted`
 * itself when free, else the first free of `wanted-2`, `wanted-3`… as Claude Code does (cut to
 * fit the 64 characters). Refused: a name that breaks Claude Code's rule
 * (`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`), or one of the lead's (`main`, `lead`, `team-lead`, in any
 * case). Pure.
 */
export function chooseTeammateName(wanted: string, taken: ReadonlySet<string>): NameChoice {
  if (!TEAMMATE_NAME.test(wanted)) {
    return {
      error: `Invalid teammate name "${wanted}": use 1 to 64 letters, digits, "-" or "_", ` +
        "starting with a letter or digit",
    };
  }
  if (RESERVED.has(wanted.toLowerCase())) {
    return { error: `Invalid teammate name "${wanted}": it names the lead` };
  }
  if (!taken.has(wanted)) return { name: wanted };
  for (let n = 2;; n++) {
    const suffix = `-${n}`;
    const name = `${wanted.slice(0, 64 - suffix.length)}${suffix}`;
    if (!taken.has(name)) return { name };
  }
}
