import assert from "node:assert/strict";
import { bashRuleMatches, parseCommand, splitCommand, stripWrappers } from "./bash_match.ts";
import { isReadOnlyCommand } from "./read_only_command.ts";

const matching: [pattern: string, command: string, matches: boolean][] = [
  ["npm run build", "npm run build", true],
  ["npm run build", "npm run build --watch", false],
  ["npm run test *", "npm run test", true],
  ["npm run test *", "npm run test --coverage", true],
  ["npm run test *", "npm run test:unit", false],
  ["npm run test:*", "npm run test", true],
  ["npm run test:*", "npm run test:unit", false],
  ["ls *", "ls -la", true],
  ["ls *", "ls", true],
  ["ls *", "lsof", false],
  ["ls*", "lsof", true],
  ["git diff:*", "git diff HEAD~1", true],
  ["git diff:*", "git diff", true],
  ["git diff:*", "git difftool", false],
  ["git * main", "git checkout main", true],
  ["git * main", "git merge origin main", true],
  ["git * main", "git checkout dev", false],
  ["* install", "npm install", true],
  ["* install", "install", false],
  ["*", "rm -rf /", true],
  ["echo \\*", "echo *", true],
  ["echo \\*", "echo hi", false],
  ["npm *", "pnpm install", false],
  ["curl http://site.com/:*", "curl http://site.com/x", false],
  ["curl http://site.com/*", "curl http://site.com/x", true],
  ["git commit -m *", 'git commit -m "fix (x) [y]"', true],
];

for (const [pattern, command, matches] of matching) {
  Deno.test(`Bash(${pattern}) ${matches ? "matches" : "does not match"} "${command}"`, () => {
    assert.equal(bashRuleMatches(pattern, command), matches);
  });
}

const splitting: [command: string, parts: string[], complex: boolean][] = [
  ["ls && rm -rf x", ["ls", "rm -rf x"], false],
  ["a || b; c | d\ne", ["a", "b", "c", "d", "e"], false],
  ["sleep 1 & echo done", ["sleep 1", "echo done"], false],
  ["echo 'a && b' \"c; d\"", ["echo 'a && b' \"c; d\""], false],
  ["echo a\\;b", ["echo a\\;b"], false],
  ["npm test 2>&1 | tail -5", ["npm test 2>&1", "tail -5"], false],
  ["ls   -la\t/tmp", ["ls -la /tmp"], false],
  ["git status # && rm -rf /", ["git status"], false],
  ["echo $(rm -rf /)", ["echo", "rm -rf /"], true],
  ["echo `whoami`", ["echo", "whoami"], true],
  ['echo "$(id)"', ['echo "$(id)"'], true],
  ["(cd x && rm y)", ["cd x", "rm y"], true],
  ["if true; then rm -rf x; fi", ["true", "rm -rf x"], true],
  ["cat <<EOF\nhi\nEOF", ["cat << EOF", "hi", "EOF"], true],
  ["echo 'unterminated", ["echo 'unterminated"], true],
  ["diff <(ls a) <(ls b)", ["diff", "ls a", "ls b"], true],
];

for (const [command, parts, complex] of splitting) {
  Deno.test(`splitCommand cuts ${JSON.stringify(command)} into ${parts.length} part(s)`, () => {
    assert.deepEqual(splitCommand(command), parts);
    assert.equal(parseCommand(command).complex, complex);
  });
}

const wrappers: [part: string, stripped: string][] = [
  ["timeout 10 npm test", "npm test"],
  ["timeout -s KILL 5m npm test", "npm test"],
  ["nice -n 10 make", "make"],
  ["nice -5 make", "make"],
  ["nice make", "make"],
  ["nohup ./server", "./server"],
  ["time -p npm test", "npm test"],
  ["env NODE_ENV=test FOO='a b' npm test", "npm test"],
  ["NODE_ENV=test npm test", "npm test"],
  ["nohup timeout 30 nice -n 5 npm test", "npm test"],
  ["timeout soon npm test", "timeout soon npm test"],
  ["env -u HOME npm test", "env -u HOME npm test"],
  ["nohup", "nohup"],
  ["npm test", "npm test"],
];

for (const [part, stripped] of wrappers) {
  Deno.test(`stripWrappers looks through "${part}" to "${stripped}"`, () => {
    assert.equal(stripWrappers(part), stripped);
  });
}

const readOnly: [part: string, readOnly: boolean][] = [
  ["ls -la", true],
  ["cat README.md", true],
  ["pwd", true],
  ["echo hello", true],
  ["head -20 x.ts", true],
  ["tail -f log", true],
  ["wc -l x", true],
  ["which deno", true],
  ["git status", true],
  ["git diff HEAD", true],
  ["git log --oneline", true],
  ["git branch", true],
  ["git branch -D main", false],
  ["git diff --output=x.patch", false],
  ["git push", false],
  ["git", false],
  ["echo hi > file.txt", false],
  ["echo hi >> file.txt", false],
  ["ls 2>&1", true],
  ["ls 2>/dev/null", true],
  ["timeout 5 cat x", true],
  ["LD_PRELOAD=evil.so ls", false],
  ["rm -rf x", false],
  ["ls && rm x", false],
  ["echo $(rm x)", false],
  ["find . -delete", false],
  // What Claude Code runs without asking, and the variants that write or run programs.
  ["rg -n TODO src", true],
  ["rg --pre ./evil.sh TODO", false],
  ["rg --pre=./evil.sh TODO", false],
  ["find . -name '*.ts' -type f", true],
  ["find . -exec rm {} ;", false],
  ["find . -execdir rm {} +", false],
  ["find . -ok rm {} ;", false],
  ["find . -fprint out.txt", false],
  ["find . -fprintf out.txt %p", false],
  ["find . -fls out.txt", false],
  ["sort -u names.txt", true],
  ["sort -o names.txt names.txt", false],
  ["sort -uo names.txt names.txt", false],
  ["sort --output=names.txt names.txt", false],
  ["sort --compress-program=./evil names.txt", false],
  ["uniq -c names.txt", true],
  ["uniq names.txt out.txt", false],
  ["diff -u a.ts b.ts", true],
  ["cmp a b", true],
  ["cut -d, -f1 data.csv", true],
  ["jq .name package.json", true],
  ["tree -L 2", true],
  ["tree -o listing.txt", false],
  ["file README.md", true],
  ["file -C -m magic", false],
  ["date +%Y-%m-%d", true],
  ["date -s 2020-01-01", false],
  ["sha256sum a.ts", true],
  ["git show HEAD~1 --stat", true],
  ["git show --output=x.patch HEAD", false],
  ["git log --output=x.log", false],
  ["git blame a.ts", true],
  ["git describe --tags", true],
  ["git ls-tree HEAD", true],
  ["git tag", true],
  ["git tag -l 'v1*'", true],
  ["git tag v2.0", false],
  ["git tag -d v1.0", false],
  ["git branch -a", true],
  ["git remote -v", true],
  ["git remote add x y", false],
  ["sort names.txt > sorted.txt", false],
  ["cd /tmp", false],
];

for (const [part, expected] of readOnly) {
  Deno.test(`isReadOnlyCommand says "${part}" is ${expected ? "" : "not "}read-only`, () => {
    assert.equal(isReadOnlyCommand(part), expected);
  });
}

Deno.test("sessions recorded before keep the smaller read-only set", () => {
  for (const part of ["rg -n TODO", "find . -name x", "sort a", "diff a b", "git describe"]) {
    assert.equal(isReadOnlyCommand(part, false), false, part);
  }
  for (const part of ["ls -la", "cat a", "git status", "git branch"]) {
    assert.equal(isReadOnlyCommand(part, false), true, part);
  }
});
