import { knownToolNames, type ToolNames } from "../tools/tool_names.ts";

/**
 * A parsed permission rule: `Tool` or `Tool(specifier)` from `permissions.allow|ask|deny`.
 *
 * `tool` is rein's tool name (`bash`, `read_file`, …) for tools rein has, an MCP name
 * (`mcp__server` for a whole server, `mcp__server__tool` for one tool), or Claude Code's name for
 * a Claude Code tool rein does not have (`WebFetch`), which then matches no call.
 */
export interface Rule {
  /** The rule as written, trimmed, for messages and for reporting which rule decided. */
  readonly text: string;
  readonly tool: string;
  /** The text between the parentheses (`\(` and `\)` unescaped); absent for a tool-wide rule. */
  readonly specifier?: string;
}

/** The result of {@linkcode parseRule}. */
export type ParsedRule = { ok: true; rule: Rule } | { ok: false; message: string };

/**
 * Parses one permission rule in Claude Code's grammar. Pure; never throws.
 *
 * Accepts the names `names` knows (rein's tools by default): Claude Code's names and aliases
 * (mapped to rein's, `MultiEdit` → edit_file), rein's own names, Claude Code tools rein does not
 * have (kept, matching no call), and MCP names.
 * `Tool(*)` is the same as `Tool`. A malformed rule (unbalanced parentheses, a missing or
 * unknown tool name, empty parentheses, parentheses after an MCP name) gives a message that
 * quotes the rule and says what is wrong.
 */
export function parseRule(text: string, names: ToolNames = knownToolNames()): ParsedRule {
  const trimmed = text.trim();
  const fail = (detail: string): ParsedRule => ({
    ok: false,
    message: `Invalid permission rule "${trimmed}": ${detail}`,
  });
  if (trimmed === "") return fail("the rule is empty");

  const open = indexOfUnescaped(trimmed, "(");
  const name = open === -1 ? trimmed : trimmed.slice(0, open);
  let specifier: string | undefined;
  if (open === -1) {
    if (indexOfUnescaped(trimmed, ")") !== -1) return fail('")" without a matching "("');
  } else {
    const body = trimmed.slice(open + 1);
    const close = closingParenthesis(body);
    if (close === -1) return fail('missing ")" at the end');
    if (body[close + 1] === ")") return fail('")" without a matching "("');
    if (close !== body.length - 1) {
      return fail(`unexpected text after ")": "${body.slice(close + 1)}"`);
    }
    specifier = body.slice(0, close);
  }

  if (name === "") return fail("missing the tool name before the parentheses");
  if (/\s/.test(name)) return fail(`the tool name "${name}" contains whitespace`);
  if (specifier !== undefined && specifier.trim() === "") {
    return fail(`empty parentheses (write "${name}" to match every use of the tool)`);
  }

  if (name.startsWith("mcp__")) return parseMcpRule(trimmed, name, specifier, fail);

  const tool = names.ruleTool(name) ?? (names.isClaudeOnly(name) ? name : undefined);
  if (tool === undefined) {
    return fail(
      `unknown tool "${name}" (expected a Claude Code tool such as Bash, Read, Edit, Write, ` +
        "Glob, Grep, Task, Skill, a rein tool name, or mcp__server__tool)",
    );
  }
  if (specifier === undefined || specifier.trim() === "*") {
    return { ok: true, rule: { text: trimmed, tool } };
  }
  return {
    ok: true,
    rule: { text: trimmed, tool, specifier: specifier.replace(/\\([()])/g, "$1") },
  };
}

function parseMcpRule(
  text: string,
  name: string,
  specifier: string | undefined,
  fail: (detail: string) => ParsedRule,
): ParsedRule {
  if (specifier !== undefined) {
    return fail("MCP rules take no parentheses (write mcp__server or mcp__server__tool)");
  }
  const rest = name.slice("mcp__".length);
  const separator = rest.indexOf("__");
  const server = separator === -1 ? rest : rest.slice(0, separator);
  if (server === "") return fail("missing the MCP server name after mcp__");
  if (separator === -1) return { ok: true, rule: { text, tool: name } };
  const tool = rest.slice(separator + 2);
  if (tool === "") return fail(`missing the tool name after "mcp__${server}__"`);
  if (tool === "*") return { ok: true, rule: { text, tool: `mcp__${server}` } };
  return { ok: true, rule: { text, tool: name } };
}

function indexOfUnescaped(text: string, char: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === char) return i;
  }
  return -1;
}

/** The index in `body` of the `)` closing the rule's `(`, or -1 when they do not balance. */
function closingParenthesis(body: string): number {
  let depth = 1;
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char === "\\") i++;
    else if (char === "(") depth++;
    else if (char === ")" && --depth === 0) return i;
  }
  return -1;
}
