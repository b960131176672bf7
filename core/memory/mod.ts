/**
 * Memory (s09): project instructions (CLAUDE.md, AGENTS.md and their `@` imports) and the memory
 * the agent keeps (MEMORY.md and topic files), recorded when a session starts or resumes.
 *
 * @module
 */
export * from "./import_references.ts";
export * from "./instruction_paths.ts";
export * from "./memory_files.ts";
export * from "./memory_mechanism.ts";
export * from "./memory_projection.ts";
export * from "./memory_report.ts";
export * from "./memory_sections.ts";
export * from "./path_rules.ts";
export * from "./read_memory_files.ts";
export * from "./save_note.ts";
