/**
 * A `deno lint` plugin (configured in deno.json, so `deno task check` runs it): no function in
 * core/ is longer than {@link MAX_FUNCTION_LINES} lines, counted from its declaration (its name,
 * or its parameters for an arrow) to its closing brace. A longer one is several steps that want
 * names of their own.
 */
import { relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The most lines a function in core/ may span. */
export const MAX_FUNCTION_LINES = 150;

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "..");

type FunctionNode =
  | Deno.lint.FunctionDeclaration
  | Deno.lint.FunctionExpression
  | Deno.lint.ArrowFunctionExpression;

/** The plugin: rule `rein/function-length`. */
const plugin: Deno.lint.Plugin = {
  name: "rein",
  rules: {
    "function-length": {
      create(context) {
        if (!relative(ROOT, resolve(context.filename)).startsWith("core/")) return {};
        const text = context.sourceCode.text;
        const check = (node: FunctionNode) => {
          const [start, end] = node.range;
          let lines = 1;
          for (
            let i = text.indexOf("\n", start);
            i !== -1 && i < end;
            i = text.indexOf("\n", i + 1)
          ) {
            lines += 1;
          }
          if (lines <= MAX_FUNCTION_LINES) return;
          context.report({
            node,
            message: `${nameOf(node)} is ${lines} lines long, more than the ` +
              `${MAX_FUNCTION_LINES} a function in core/ may have`,
            hint: "Split it into named steps",
          });
        };
        return {
          FunctionDeclaration: check,
          FunctionExpression: check,
          ArrowFunctionExpression: check,
        };
      },
    },
  },
};

export default plugin;

/** How a report names the function: by its name, its method's or its variable's. */
function nameOf(node: FunctionNode): string {
  if (node.type !== "ArrowFunctionExpression" && node.id) return `Function ${node.id.name}`;
  const parent = node.parent;
  const key = parent.type === "MethodDefinition" || parent.type === "Property"
    ? parent.key
    : parent.type === "VariableDeclarator"
    ? parent.id
    : undefined;
  return key?.type === "Identifier" ? `Function ${key.name}` : "A function";
}
