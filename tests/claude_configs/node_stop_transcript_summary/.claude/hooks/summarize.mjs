#!/usr/bin/env node
// Stop: reads transcript_path (JSONL) once and feeds back a count with additionalContext.
import fs from "node:fs";
import path from "node:path";
const input = JSON.parse(fs.readFileSync(0, "utf8"));
const state = path.join(process.env.CLAUDE_PROJECT_DIR, ".claude", "summarized");
if (input.stop_hook_active || fs.existsSync(state)) process.exit(0);
const lines = fs.readFileSync(input.transcript_path, "utf8").split("\n").filter(Boolean).map((l) =>
  JSON.parse(l)
);
const commands = lines.filter((l) => l.type === "assistant")
  .flatMap((l) => l.message.content).filter((b) => b.type === "tool_use" && b.name === "Bash")
  .map((b) => b.input.command);
const outputs = lines.filter((l) => l.type === "user" && l.toolUseResult).map((l) =>
  l.toolUseResult.stdout
);
fs.writeFileSync(state, `${lines.length} lines\n`);
console.log(
  JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "Stop",
      additionalContext: `You ran: ${commands.join("; ")} and saw: ${outputs.join("; ")}`,
    },
  }),
);
