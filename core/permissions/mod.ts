export { type ParsedRule, parseRule, type Rule } from "./rule.ts";
export {
  bashRuleMatches,
  parseCommand,
  type ParsedCommand,
  splitCommand,
  stripWrappers,
} from "./bash_match.ts";
export { isReadOnlyCommand } from "./read_only_command.ts";
export { loadPathMatcher, type PathContext, pathRuleMatches } from "./path_match.ts";
export {
  decide,
  type PermissionCall,
  type PermissionDecision,
  type PermissionRules,
} from "./decide.ts";
