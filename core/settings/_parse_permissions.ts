/** Reads the `permissions` object of one settings file. */
import { isRecord, keyPath, quoteAll, type Reporter, stringList } from "./_reporter.ts";
import { PERMISSION_MODES, type PermissionMode, type PermissionSettings } from "./settings.ts";

const LISTS = ["allow", "ask", "deny", "additionalDirectories"] as const;
const KEYS: readonly string[] = [...LISTS, "defaultMode"];

/**
 * The valid parts of `value` (the `permissions` key); every bad part is reported and dropped,
 * the rest kept. `undefined` when `value` is not an object. Pure.
 */
export function parsePermissions(
  value: unknown,
  report: Reporter,
): PermissionSettings | undefined {
  if (!isRecord(value)) {
    report.mismatch("permissions", "an object", value);
    return undefined;
  }
  const permissions: PermissionSettings = {};
  for (const [key, item] of Object.entries(value)) {
    const where = keyPath("permissions", key);
    switch (key) {
      case "allow":
      case "ask":
      case "deny":
      case "additionalDirectories": {
        const list = stringList(item, where, report);
        if (list) permissions[key] = list;
        break;
      }
      case "defaultMode":
        if (isPermissionMode(item)) permissions.defaultMode = item;
        else report.mismatch(where, `one of ${quoteAll(PERMISSION_MODES)}`, item);
        break;
      default:
        // A misspelt `deny` must not pass unnoticed; legitimate Claude Code keys rein does not
        // use land here too, hence a warning rather than an error.
        report.warning(
          "Unknown permissions key",
          `${where} is not one of ${quoteAll(KEYS)}, so rein ignores it`,
        );
    }
  }
  return permissions;
}

function isPermissionMode(value: unknown): value is PermissionMode {
  return (PERMISSION_MODES as readonly unknown[]).includes(value);
}
