import type { HookMatcher, PermissionSettings, Settings } from "./settings.ts";

const SCALARS = ["model", "fallbackModel", "apiKeyHelper"] as const;
const LISTS = ["allow", "ask", "deny", "additionalDirectories"] as const;

/**
 * Merges the settings of several files, given highest precedence first (command line, local,
 * project, user). Scalars, `permissions.defaultMode`, each `env` variable and each `other` key:
 * the highest file that sets it wins. Permission lists: concatenated across files, highest
 * first, each entry once, so a deny in one file and an allow in another both survive (which
 * one applies is the permission evaluator's business). `hooks`: per event, the matchers of
 * every file, highest first. A key no file sets stays absent. Pure: the layers are not changed.
 */
export function mergeSettings(layers: Partial<Settings>[]): Settings {
  const settings: Settings = { other: mergeRecords(layers.map((layer) => layer.other)) };
  for (const key of SCALARS) {
    const value = layers.find((layer) => layer[key] !== undefined)?.[key];
    if (value !== undefined) settings[key] = value;
  }
  const permissions = layers.flatMap((layer) => layer.permissions ? [layer.permissions] : []);
  if (permissions.length > 0) settings.permissions = mergePermissions(permissions);
  const hooks = layers.flatMap((layer) => layer.hooks ? [layer.hooks] : []);
  if (hooks.length > 0) settings.hooks = mergeHooks(hooks);
  const env = layers.flatMap((layer) => layer.env ? [layer.env] : []);
  if (env.length > 0) settings.env = mergeRecords(env);
  return settings;
}

function mergePermissions(layers: PermissionSettings[]): PermissionSettings {
  const permissions: PermissionSettings = {};
  for (const key of LISTS) {
    const lists = layers.flatMap((layer) => layer[key] ? [layer[key]] : []);
    if (lists.length > 0) permissions[key] = [...new Set(lists.flat())];
  }
  const defaultMode = layers.find((layer) => layer.defaultMode !== undefined)?.defaultMode;
  if (defaultMode !== undefined) permissions.defaultMode = defaultMode;
  return permissions;
}

function mergeHooks(layers: Record<string, HookMatcher[]>[]): Record<string, HookMatcher[]> {
  const events = new Map<string, HookMatcher[]>();
  for (const layer of layers) {
    for (const [event, matchers] of Object.entries(layer)) {
      events.set(event, [...events.get(event) ?? [], ...matchers]);
    }
  }
  return Object.fromEntries(events);
}

/** Each key's value from the first record that has it. */
function mergeRecords<T>(records: (Record<string, T> | undefined)[]): Record<string, T> {
  const merged = new Map<string, T>();
  for (const record of records) {
    for (const [key, value] of Object.entries(record ?? {})) {
      if (!merged.has(key)) merged.set(key, value);
    }
  }
  return Object.fromEntries(merged);
}
