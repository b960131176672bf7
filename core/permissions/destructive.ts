import { lexCommand, type ShellToken, unwrapTokens } from "./_shell_lex.ts";

/** Programs that are refused whatever their arguments. */
const REFUSED_PROGRAMS: ReadonlyMap<string, string> = new Map([
  ["sudo", "sudo (running as another user)"],
  ["su", "su (running as another user)"],
  ["doas", "doas (running as another user)"],
  ["shutdown", "shutdown"],
  ["reboot", "reboot"],
  ["halt", "halt"],
  ["poweroff", "poweroff"],
  ["fdisk", "fdisk (partitioning a disk)"],
  ["sfdisk", "sfdisk (partitioning a disk)"],
  ["parted", "parted (partitioning a disk)"],
  ["wipefs", "wipefs (wiping a disk)"],
]);

/** Block devices: disks, partitions, and the kernel's raw memory. */
const BLOCK_DEVICE =
  /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|loop|dm-|md|disk|rdisk|mapper\/|mem$|kmem$|port$)/;

/** Paths whose recursive removal destroys a system or a home: `/`, `/*`, `~`, `$HOME`, `/usr`… */
const VITAL_PATH =
  /^(\/+\*?|~\/?\*?|\$HOME\/?\*?|\$\{HOME\}\/?\*?|\/(bin|boot|dev|etc|home|lib|lib64|opt|proc|root|sbin|srv|sys|usr|var)\/?\*?)$/;

/**
 * What is destructive in a bash command, or undefined: refused in every mode, whatever the
 * rules (s03's list): `rm -r` of `/`, a home or a system directory, `sudo` and friends, `mkfs`,
 * `dd if=`, `shutdown`, `reboot`, partitioning tools, writes or redirections to block devices,
 * a fork bomb. Every part of a compound command is checked, wrappers (`timeout`, `nice`, `env`…)
 * looked through. Pure.
 */
export function destructiveCommand(command: string): string | undefined {
  if (/:\s*\(\s*\)\s*\{\s*:\s*\|\s*:\s*&\s*\}/.test(command)) return "a fork bomb";
  for (const part of lexCommand(command).parts) {
    const found = destructivePart(unwrapTokens(part).tokens);
    if (found !== undefined) return found;
  }
  return undefined;
}

function destructivePart(tokens: readonly ShellToken[]): string | undefined {
  const words = tokens.flatMap((token) => token.kind === "word" ? [token.value] : []);
  const program = (words[0] ?? "").replace(/^.*\//, "");
  const refused = REFUSED_PROGRAMS.get(program);
  if (refused !== undefined) return refused;
  if (program === "mkfs" || program.startsWith("mkfs.") || program === "mke2fs") {
    return `${program} (formatting a file system)`;
  }
  if (program === "dd" && words.some((word) => word.startsWith("if="))) return "dd if=";
  if (program === "rm" && isRecursive(words.slice(1))) {
    const target = words.slice(1).find((word) => !word.startsWith("-") && VITAL_PATH.test(word));
    if (target !== undefined) return `rm -r ${target}`;
    if (words.includes("--no-preserve-root")) return "rm --no-preserve-root";
  }
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as ShellToken;
    const next = tokens[i + 1];
    if (
      token.kind === "redirect" && /[>]/.test(token.raw) && next?.kind === "word" &&
      BLOCK_DEVICE.test(next.value)
    ) return `writing to the block device ${next.value}`;
  }
  const device = words.find((word) => word.startsWith("of=") && BLOCK_DEVICE.test(word.slice(3)));
  if (device !== undefined) return `writing to the block device ${device.slice(3)}`;
  return undefined;
}

function isRecursive(args: readonly string[]): boolean {
  return args.some((arg) =>
    arg === "--recursive" || (/^-[a-zA-Z]+$/.test(arg) && /[rR]/.test(arg))
  );
}
