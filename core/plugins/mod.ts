/**
 * Claude Code plugin folders: a plugin's manifest read and checked, the plugins a session used
 * (recorded), and the mechanism that records them. Their parts are read by the commands, skills,
 * agents and hooks mechanisms, named `<plugin>:<name>`.
 *
 * @module
 */
export * from "./plugin_manifest.ts";
export * from "./plugin_root.ts";
export * from "./plugin_set.ts";
export * from "./plugins_mechanism.ts";
export * from "./read_plugin_files.ts";
export * from "./read_plugin_root.ts";
export * from "./read_plugin_hooks.ts";
