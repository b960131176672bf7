import type { SessionPermissions } from "../../core/permissions/session_permissions.ts";

/**
 * What `/permissions` shows: the mode, then every effective rule by list (deny, ask, allow) with
 * the file or flag it came from, the rules allowed during this session, and the problems found
 * in the settings. Pure.
 */
export function permissionsReport(permissions: SessionPermissions | undefined): string {
  if (permissions === undefined) {
    return "This session was recorded without settings: every call runs.";
  }
  const { policy, sessionRules } = permissions;
  const lines = [`Mode: ${policy.mode}`];
  for (const list of ["deny", "ask", "allow"] as const) {
    const rules = policy.rules[list];
    lines.push("", `${list} (${rules.length})`);
    for (const rule of rules) lines.push(`  ${rule.text.padEnd(32)} ${rule.file}`);
  }
  if (sessionRules.length > 0) {
    lines.push("", "allowed in this session");
    for (const rule of sessionRules) lines.push(`  ${rule.text}`);
  }
  if (policy.additionalDirectories.length > 0) {
    lines.push("", `Additional directories: ${policy.additionalDirectories.join(", ")}`);
  }
  if (policy.diagnostics.length > 0) {
    lines.push("", "Problems in the settings:", ...policy.diagnostics.map((d) => `  ${d}`));
  }
  lines.push(
    "",
    "Built in: destructive commands (rm -rf /, sudo, mkfs, dd if=, shutdown, reboot, writes to " +
      "block devices) are always denied; read-only tools and commands never ask.",
  );
  return lines.join("\n");
}
