/**
 * The tool contract and the base tools: shell, file reading and writing, editing, and search,
 * all confined to a workspace.
 *
 * @module
 */
export * from "./tool.ts";
export * from "./schema.ts";
export * from "./tool_names.ts";
export * from "./workspace_path.ts";
export * from "./base_tools.ts";
export * from "./bash.ts";
export * from "./read_file.ts";
export * from "./write_file.ts";
export * from "./edit_file.ts";
export * from "./glob.ts";
export * from "./grep.ts";
