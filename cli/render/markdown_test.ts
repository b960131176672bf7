import assert from "node:assert/strict";
import fc from "fast-check";
import { MarkdownStream } from "./markdown.ts";
import { createStyles } from "./style.ts";

const plain = createStyles(false);
const color = createStyles(true);

/** The whole answer pushed in one delta and flushed. */
function render(markdown: string, width = 80, styles = plain): string {
  const stream = new MarkdownStream(styles, width);
  return stream.push(markdown) + stream.flush();
}

// deno-lint-ignore no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

function visible(text: string): string {
  return text.replace(ANSI, "");
}

Deno.test("a heading renders bold without its hashes, at every level", () => {
  assert.equal(render("# Title\n", 80, color), `${color.bold("Title")}\n`);
  assert.equal(render("## Part ##\n### Step\n###### Six\n"), "Part\nStep\nSix\n");
});

Deno.test("a hash without a following space is not a heading", () => {
  assert.equal(render("#hashtag and C#\n"), "#hashtag and C#\n");
});

Deno.test("strong text renders bold and emphasis loses its markers, the text plain", () => {
  assert.equal(
    render("a **strong** b *em* c _em_ d __also__\n", 80, color),
    `a ${color.bold("strong")} b em c em d ${color.bold("also")}\n`,
  );
});

Deno.test("underscores inside words and lone asterisks are left as they are", () => {
  assert.equal(
    render("call snake_case_name with 2 * 3 * 4\n"),
    "call snake_case_name with 2 * 3 * 4\n",
  );
});

Deno.test("inline code renders cyan and what is inside it is not formatted", () => {
  assert.equal(
    render("run `deno **task**` now\n", 80, color),
    `run ${color.cyan("deno **task**")} now\n`,
  );
  assert.equal(render("a ``x ` y`` b\n"), "a x ` y b\n");
});

Deno.test("a link renders as its text followed by the dim url in parentheses", () => {
  assert.equal(
    render("see [the **docs**](https://deno.land/x) here\n", 80, color),
    `see the ${color.bold("docs")} (${color.dim("https://deno.land/x")}) here\n`,
  );
});

Deno.test("backslash escapes keep their characters literal", () => {
  assert.equal(render("\\*not em\\* and \\`tick\\`\n"), "*not em* and `tick`\n");
});

Deno.test("bullets become • and numbered items keep their numbers, with nesting kept", () => {
  assert.equal(
    render("- one\n* two\n  + nested\n1. first\n   2) second\n"),
    "• one\n• two\n  • nested\n1. first\n   2) second\n",
  );
});

Deno.test("a long list item wraps on word boundaries with a hanging indent", () => {
  assert.equal(
    render("- the quick brown fox jumps over the lazy dog\n  10. nested item wraps too\n", 16),
    "• the quick\n  brown fox\n  jumps over the\n  lazy dog\n  10. nested\n      item wraps\n      too\n",
  );
});

Deno.test("a paragraph wraps at the width and keeps its indentation on every line", () => {
  assert.equal(render("  indented words go here\n", 12), "  indented\n  words go\n  here\n");
});

Deno.test("a blockquote gets a dim bar on every line, wrapped lines included", () => {
  assert.equal(
    render("> quoted words that wrap\n>\n> - item\n", 12, color),
    [
      `${color.dim("│")} quoted`,
      `${color.dim("│")} words that`,
      `${color.dim("│")} wrap`,
      color.dim("│"),
      `${color.dim("│")} • item`,
      "",
    ].join("\n"),
  );
});

Deno.test("a horizontal rule is a dim line of ─, 40 wide at most and no wider than the terminal", () => {
  assert.equal(render("---\n", 80, color), `${color.dim("─".repeat(40))}\n`);
  assert.equal(render("* * *\n", 10), `${"─".repeat(10)}\n`);
  assert.equal(render("___\n", 0), `${"─".repeat(40)}\n`);
});

Deno.test("a code block drops its fences and indents its lines by two, unformatted and unwrapped", () => {
  const code = "```\n# not a heading\n- **not** a list item that is long\n\n```\nafter\n";
  assert.equal(
    render(code, 20),
    "  # not a heading\n  - **not** a list item that is long\n\nafter\n",
  );
});

Deno.test("a code block closes only at a fence of its own kind and length", () => {
  assert.equal(render("````md\n```\n~~~\n````\n*x*\n"), "  ```\n  ~~~\nx\n");
});

Deno.test("a code fence split across deltas at odd boundaries renders as if sent whole", () => {
  const stream = new MarkdownStream(color, 80);
  assert.equal(stream.push("```t"), "");
  assert.equal(stream.push("s\nconst x"), "");
  assert.equal(stream.push(" = 1;\n```\n"), `  ${color.cyan("const")} x = 1;\n`);
  assert.equal(stream.push("**done**\n"), `${color.bold("done")}\n`);
  assert.equal(stream.flush(), "");
});

Deno.test("an answer streamed in any chunks renders the same as in one delta", () => {
  const answer = "# T\n\nSome **bold** and `code` text that wraps\n- item _em_\n```py\n" +
    "x = 'a' # c\n```\n> quote\n---\nlast [a](b)";
  const whole = render(answer, 14, color);
  fc.assert(
    fc.property(fc.array(fc.nat(answer.length), { maxLength: 12 }), (cuts) => {
      const points = [0, ...cuts.toSorted((a, b) => a - b), answer.length];
      const stream = new MarkdownStream(color, 14);
      let output = "";
      for (let i = 1; i < points.length; i++) {
        output += stream.push(answer.slice(points[i - 1], points[i]));
      }
      assert.equal(output + stream.flush(), whole);
    }),
  );
});

Deno.test("ts code colours keywords cyan, strings green and comments dim", () => {
  assert.equal(
    render('```ts\nconst s = "if // x"; // note\n```\n', 80, color),
    `  ${color.cyan("const")} s = ${color.green('"if // x"')}; ${color.dim("// note")}\n`,
  );
});

Deno.test("py and sh comments are dim, but a # inside a string or a word is not a comment", () => {
  assert.equal(
    render("```python\nif x: return '#a' # c\n```\n", 80, color),
    `  ${color.cyan("if")} x: ${color.cyan("return")} ${color.green("'#a'")} ${color.dim("# c")}\n`,
  );
  assert.equal(
    render("```bash\necho $# 'it' # done\n```\n", 80, color),
    `  echo $# ${color.green("'it'")} ${color.dim("# done")}\n`,
  );
});

Deno.test("code in an unknown language is printed without colour", () => {
  assert.equal(
    render('```rust\nfn main() { let s = "x"; }\n```\n', 80, color),
    '  fn main() { let s = "x"; }\n',
  );
});

Deno.test("colouring code never alters its characters", () => {
  for (const lang of ["ts", "json", "py", "sh"]) {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(..."ab if#/*'\"`\\ const\tnull:") })
          // A line of only backticks would close the block.
          .filter((line) => !/^\s*`{3,}\s*$/.test(line)),
        (line) => {
          const output = render(`\`\`\`${lang}\n${line}\n`, 10, color);
          assert.equal(visible(output), line === "" ? "\n" : `  ${line}\n`);
        },
      ),
    );
  }
});

Deno.test("flush returns the formatted unterminated last line and resets for the next answer", () => {
  const stream = new MarkdownStream(plain, 80);
  assert.equal(stream.push("## Done **now**"), "");
  assert.equal(stream.flush(), "Done now");
  assert.equal(stream.flush(), "");
  stream.push("```\nopen code");
  assert.equal(stream.flush(), "  open code");
  assert.equal(stream.push("- next answer\n"), "• next answer\n");
});

Deno.test("push returns nothing until a line is complete, then every completed line", () => {
  const stream = new MarkdownStream(plain, 80);
  assert.equal(stream.push("- a"), "");
  assert.equal(stream.push("\n- b\n- c"), "• a\n• b\n");
  assert.equal(stream.flush(), "• c");
});

Deno.test("wrapping measures visible width, ignoring ANSI codes", () => {
  const text = "**bold words** and `code spans` with [a link](http://x.io) in a list\n";
  const colored = render(`- ${text}`, 20, color);
  assert.equal(visible(colored), render(`- ${text}`, 20, plain));
  for (const line of visible(colored).split("\n")) assert.ok(line.length <= 20, line);
  assert.equal(visible(colored).split("\n")[0], "• bold words and");
});

Deno.test("a style wrapped across lines closes at each line end and does not paint the indent", () => {
  assert.equal(
    render("- **one two three**\n", 10, color),
    `• ${color.bold("one two")}\n  ${color.bold("three")}\n`,
  );
});

Deno.test("a word longer than the width is broken at the width, and only such a word", () => {
  assert.equal(
    render("go https://example.com/long ok\n", 10),
    "go\nhttps://ex\nample.com/\nlong ok\n",
  );
});

Deno.test("wide characters count two columns when wrapping", () => {
  assert.equal(render("日本語 日本\n", 8), "日本語\n日本\n");
});

Deno.test("width 0 or less does not wrap", () => {
  const long = `- ${"word ".repeat(60).trim()}\n`;
  assert.equal(render(long, 0), `• ${"word ".repeat(60).trim()}\n`);
  assert.equal(render(long, -5), render(long, 0));
});

Deno.test("with colour off the output is clean text with the markers removed", () => {
  const output = render(
    "# Plan\n**Step** one: run `make` per [guide](g.md).\n> *note*\n```ts\nconst a = 1;\n```\n",
  );
  assert.equal(output, "Plan\nStep one: run make per guide (g.md).\n│ note\n  const a = 1;\n");
  assert.ok(!output.includes("\x1b"));
});

Deno.test("table rows keep their columns and are not wrapped", () => {
  assert.equal(render("| a **b** | c d e f |\n", 8), "| a b | c d e f |\n");
});

Deno.test("CRLF line endings render like LF", () => {
  assert.equal(render("# T\r\n- a\r\n"), "T\n• a\n");
});
