export type { PluginRoot } from "../files/plugin_root.ts";
