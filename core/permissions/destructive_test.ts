import assert from "node:assert/strict";
import { destructiveCommand } from "./destructive.ts";

const REFUSED: [string, string][] = [
  ["rm -rf /", "rm -r /"],
  ["rm -fr /*", "rm -r /*"],
  ["rm -r -f ~", "rm -r ~"],
  ["rm --recursive --force $HOME", "rm -r $HOME"],
  ["cd /tmp && rm -rf /usr", "rm -r /usr"],
  ["rm -rf --no-preserve-root /tmp/x", "rm --no-preserve-root"],
  ["timeout 10 rm -rf /", "rm -r /"],
  ["sudo ls", "sudo (running as another user)"],
  ["ls; sudo -u root cat /etc/shadow", "sudo (running as another user)"],
  ["/usr/bin/sudo id", "sudo (running as another user)"],
  ["mkfs.ext4 /dev/sdb1", "mkfs.ext4 (formatting a file system)"],
  ["mkfs -t ext4 /dev/sdb", "mkfs (formatting a file system)"],
  ["dd if=/dev/zero of=disk.img bs=1M count=1", "dd if="],
  ["shutdown -h now", "shutdown"],
  ["reboot", "reboot"],
  ["nohup poweroff", "poweroff"],
  ["echo x > /dev/sda", "writing to the block device /dev/sda"],
  ["cat image >/dev/nvme0n1", "writing to the block device /dev/nvme0n1"],
  ["cp image of=/dev/mmcblk0", "writing to the block device /dev/mmcblk0"],
  [":(){ :|:& };:", "a fork bomb"],
  [String.raw`cat $'\'' ; rm -rf ~ #'`, "rm -r ~"],
];

const ALLOWED = [
  "rm -rf build",
  "rm -rf ./node_modules",
  "rm file.txt /tmp/x",
  "rm -f /",
  "ls /",
  "echo sudo",
  "git commit -m 'reboot the server'",
  "grep -r shutdown src",
  "echo x > /dev/null",
  "cat /dev/sda",
  "deno task test",
];

for (const [command, what] of REFUSED) {
  Deno.test(`the destructive list refuses ${JSON.stringify(command)}`, () => {
    assert.equal(destructiveCommand(command), what);
  });
}

Deno.test("the destructive list lets ordinary commands through", () => {
  for (const command of ALLOWED) assert.equal(destructiveCommand(command), undefined, command);
});
