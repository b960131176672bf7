/**
 * Skills (s07): SKILL.md files found, recorded, parsed and offered to the model and the person.
 *
 * @module
 */
export * from "./expand_skill.ts";
export * from "./load_skill_tool.ts";
export * from "./read_skill_files.ts";
export * from "./skill.ts";
export * from "./skill_catalog.ts";
export * from "./skill_set.ts";
export * from "./skills_mechanism.ts";
