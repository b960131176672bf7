// PreToolUse on Bash: runs npm commands with pnpm instead, through updatedInput.
const input = JSON.parse(await new Response(Deno.stdin.readable).text());
const command: string = input.tool_input.command;
if (command.startsWith("npm ")) {
  console.log(JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "allow",
      permissionDecisionReason: "npm is pnpm in this project",
      updatedInput: { ...input.tool_input, command: `pnpm ${command.slice(4)}` },
    },
  }));
}
