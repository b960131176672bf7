/**
 * A teammate's process is confined to what its Deno flags grant (issue 23's "Done when"), end to
 * end: `rein -p` (bypassPermissions, so no rule of rein's stops a call first) spawns a teammate
 * whose file tools read the lead's home and a path outside the workspace and write there: each
 * fails with Deno's own refusal, while the same tools work inside the workspace. The flags
 * recorded in its `agent.started` (`process.flags`) give `NotCapable` for those paths when a
 * small script runs under them. Its bash runs in the bwrap sandbox (design.md §12: write access
 * to its folder and a private /tmp only, the log's folder read-only, credentials hidden): it
 * cannot write the lead's home, outside the workspace, the log or the host's /tmp; and unlike
 * the lead's bash (the whole root read-only), it cannot read them either: it sees only the
 * system's folders, the workspace and the lead's git configuration, so the lead's home, the
 * outside folder, /root, /opt do not exist there, while git and rg work in its folder. The
 * lead's home and the outside folder are made under /var/tmp: the temp folder (where the
 * workspace is) is granted to every agent for the bash tool's scripts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { message, startFakeAnthropic, toolUse } from "../testing/fake_anthropic.ts";
import { firstUserText, lastMessageText } from "../testing/scenarios.ts";
import { killProcessesIn } from "../testing/tool_helpers.ts";
import { runCli } from "./_cli.ts";
import { eventsOf, readLog, teamEnv } from "./_team_e2e.ts";

/** Where Deno keeps its cache, for a child run with another HOME. */
async function denoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  return (JSON.parse(new TextDecoder().decode(out.stdout)) as { denoDir: string }).denoDir;
}

/**
 * What a Deno process with `flags` gets for each of `tries` (JavaScript expressions): `ok` or
 * the error's name.
 */
async function underFlags(flags: readonly string[], tries: readonly string[]): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "rein-confine-probe-" });
  const file = join(dir, "probe.ts");
  await Deno.writeTextFile(
    file,
    `const tries = [${tries.map((t) => `() => ${t}`).join(",\n")}];
    console.log(JSON.stringify(tries.map((f) => {
      try { f(); return "ok"; } catch (e) { return e.name; }
    })));`,
  );
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--quiet", ...flags, file],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.ok(text !== "", new TextDecoder().decode(out.stderr));
    return JSON.parse(text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a teammate's process reads and writes only what its flags grant: its file tools and its bash fail on the lead's home and outside the workspace, and its recorded flags give NotCapable", async () => {
  const path = await Deno.realPath(await Deno.makeTempDir({ prefix: "rein-team-confine-" }));
  const home = await Deno.realPath(
    await Deno.makeTempDir({ dir: "/var/tmp", prefix: "rein-home-" }),
  );
  const outside = await Deno.realPath(
    await Deno.makeTempDir({ dir: "/var/tmp", prefix: "rein-outside-" }),
  );
  const log = join(path, ".rein", "events.jsonl");
  // A file in the host's /tmp: the sandbox gives commands a private one.
  const hostTmp = join("/tmp", `rein-team-confine-${crypto.randomUUID()}`);
  const secret = join(home, "secret.txt");
  const elsewhere = join(outside, "elsewhere.txt");
  await Deno.writeTextFile(secret, "the lead's secret\n");
  await Deno.writeTextFile(elsewhere, "outside the workspace\n");
  await Deno.writeTextFile(join(path, "inside.txt"), "inside\n");
  // A credential in the lead's home: the sandbox hides it from every agent's bash.
  await Deno.mkdir(join(home, ".ssh"));
  await Deno.writeTextFile(join(home, ".ssh", "id_ed25519"), "PRIVATE KEY\n");
  // The lead's git identity: the one file of its home a teammate's bash reads (git commits).
  await Deno.writeTextFile(join(home, ".gitconfig"), "[user]\n\tname = Lead Person\n");
  // The teammate's folder is a repository: git and rg work there.
  const git = (...args: string[]) =>
    new Deno.Command("git", {
      args: ["-c", "user.name=t", "-c", "user.email=t@t", ...args],
      cwd: path,
      env: { HOME: home },
      stdout: "null",
    }).output();
  await git("init", "-q");
  await git("add", "inside.txt");
  await git("commit", "-q", "-m", "inside");
  // Each part of the read probe's output after a marker line, `@@name`.
  const part = (name: string, probe: string) =>
    probe.split(`@@${name}\n`)[1]?.split("@@")[0] ?? "(no part)";
  const calls = [
    toolUse("toolu_read_home", "read_file", { path: secret }),
    toolUse("toolu_read_outside", "read_file", { path: elsewhere }),
    toolUse("toolu_write_outside", "write_file", { path: join(outside, "w.txt"), content: "x" }),
    toolUse("toolu_write_home", "write_file", { path: join(home, "w.txt"), content: "x" }),
    toolUse("toolu_read_inside", "read_file", { path: join(path, "inside.txt") }),
    toolUse("toolu_write_inside", "write_file", { path: join(path, "w.txt"), content: "x" }),
    toolUse("toolu_bash_write", "bash", {
      command: `echo x > ${join(outside, "b.txt")}; echo x > ${join(home, "b.txt")}; ` +
        `echo x > ${join(path, "b.txt")}; cat ${join(home, ".ssh", "id_ed25519")}; ` +
        `echo x >> ${log}; echo x > ${hostTmp}; echo end`,
    }),
    toolUse("toolu_bash_read", "bash", {
      command: `echo @@home; cat ${secret} 2>&1; ls -A ${home} 2>&1; ` +
        `echo @@outside; cat ${elsewhere} 2>&1; ls -A ${outside} 2>&1; ` +
        `echo @@elsewhere; ls /root /opt /srv 2>&1; ` +
        `echo @@inside; cat inside.txt; echo @@git; git status --short; echo "git $?"; ` +
        `git config user.name; echo @@rg; rg -l inside inside.txt; echo "rg $?"; echo @@end`,
    }),
  ];
  await using fake = await startFakeAnthropic({
    script: (request) => {
      const first = firstUserText(request.body?.messages ?? []);
      const last = lastMessageText(request);
      if (first === "probe") {
        if (last.includes("shutdown_request")) {
          return message([toolUse("toolu_bye", "respond_shutdown", { approve: true })]);
        }
        if (last === "probe") return message(calls);
        return message("Probed.");
      }
      if (last.startsWith("toolu_gina ")) return message("Gina is probing.");
      if (last === "start gina") {
        return message([
          toolUse("toolu_gina", "spawn_teammate", { name: "gina", prompt: "probe" }),
        ]);
      }
      return message("Ok.");
    },
  });
  try {
    const env = teamEnv(fake.url, { HOME: home, DENO_DIR: await denoDir() });
    const args = [
      "-p",
      "start gina",
      "--workspace",
      path,
      "--permission-mode",
      "bypassPermissions",
    ];
    const out = await runCli(args, { env });
    assert.equal(out.code, 0, out.stderr);
    const events = await readLog(log);
    const result = new Map(
      eventsOf(events, "tool.completed").filter((e) => e.agent === "gina").map((e) => [
        e.data.callId,
        e.data,
      ]),
    );
    const failed = (id: string, file: string) => {
      const call = result.get(id);
      assert.equal(call?.isError, true, `${id}: ${call?.content}`);
      // Deno's own refusal (NotCapable), whatever the tool does first: write_file reads the
      // file it would replace.
      assert.match(call?.content ?? "", /Requires (read|write) access to/, id);
      assert.ok(call?.content.includes(file), id);
    };
    failed("toolu_read_home", secret);
    failed("toolu_read_outside", elsewhere);
    failed("toolu_write_outside", join(outside, "w.txt"));
    failed("toolu_write_home", join(home, "w.txt"));
    assert.equal(result.get("toolu_read_inside")?.isError, false);
    assert.match(result.get("toolu_read_inside")?.content ?? "", /inside/);
    assert.equal(result.get("toolu_write_inside")?.isError, false);
    assert.equal(await Deno.readTextFile(join(path, "w.txt")), "x");
    // Its bash, in the sandbox: writes outside its folder fail, the credential is hidden.
    const bash = result.get("toolu_bash_write")?.content ?? "";
    // (The outside folder is not there at all; the home holds only the lead's git config.)
    assert.match(bash, new RegExp(`${outside}/b\\.txt: No such file or directory`));
    assert.match(bash, new RegExp(`${home}/b\\.txt: Read-only file system`));
    assert.doesNotMatch(bash, /PRIVATE KEY/);
    assert.match(bash, /end/);
    // Nor can it touch the log (its folder is read-only to commands), nor the host's /tmp.
    assert.match(bash, new RegExp(`${log.replaceAll(".", "\\.")}: Read-only file system`));
    assert.equal(await Deno.stat(hostTmp).then(() => true, () => false), false);
    for (const file of [join(outside, "w.txt"), join(home, "w.txt"), join(outside, "b.txt")]) {
      assert.equal(await Deno.stat(file).then(() => true, () => false), false, file);
    }
    assert.equal(await Deno.stat(join(home, "b.txt")).then(() => true, () => false), false);
    assert.equal(await Deno.readTextFile(join(path, "b.txt")), "x\n");
    // Nor read: the lead's home (but its git identity) and folders outside the workspace are
    // not there; its folder is, with git and rg working in it.
    const probe = result.get("toolu_bash_read")?.content ?? "";
    assert.match(probe, /@@end/);
    assert.doesNotMatch(probe, /the lead's secret|outside the workspace/);
    assert.match(part("home", probe), /secret\.txt: No such file or directory/);
    assert.doesNotMatch(part("home", probe), /^secret\.txt$|\.ssh/m);
    assert.match(part("outside", probe), /elsewhere\.txt: No such file or directory/);
    assert.match(part("outside", probe), /rein-outside-[^:]*: No such file or directory/);
    for (const dir of ["/root", "/opt", "/srv"]) {
      assert.match(part("elsewhere", probe), new RegExp(`${dir}': No such file or directory`));
    }
    assert.equal(part("inside", probe), "inside\n");
    assert.match(part("git", probe), /^git 0\nLead Person\n$/m);
    assert.equal(part("rg", probe), "inside.txt\nrg 0\n");

    // Deno's check, under the exact flags recorded for the teammate's process.
    const started = eventsOf(events, "agent.started").find((e) => e.agent === "gina");
    assert.ok(started !== undefined);
    const flags = started.data.process.flags;
    assert.ok(!flags.includes("--allow-all") && !flags.includes("-A"), flags.join(" "));
    const quoted = (file: string) => JSON.stringify(file);
    assert.deepEqual(
      await underFlags(flags, [
        `Deno.readTextFileSync(${quoted(secret)})`,
        `Deno.readDirSync(${quoted(home)})`,
        `Deno.readTextFileSync(${quoted(elsewhere)})`,
        `Deno.writeTextFileSync(${quoted(join(outside, "d.txt"))}, "x")`,
        `Deno.writeTextFileSync(${quoted(join(home, "d.txt"))}, "x")`,
        `Deno.readTextFileSync(${quoted(join(path, "inside.txt"))})`,
        `Deno.writeTextFileSync(${quoted(join(path, "d.txt"))}, "x")`,
      ]),
      ["NotCapable", "NotCapable", "NotCapable", "NotCapable", "NotCapable", "ok", "ok"],
    );
  } finally {
    killProcessesIn(path);
    await Deno.remove(path, { recursive: true });
    await Deno.remove(home, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});
