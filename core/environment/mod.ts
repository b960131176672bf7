/**
 * The environment of a session beyond its start record: the git branch.
 *
 * @module
 */
export { environmentMechanism } from "./environment_mechanism.ts";
export { describeHead, GIT_HEAD_SOURCE, readGitHead } from "./git_branch.ts";
