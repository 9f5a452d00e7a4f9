/** A reader that closes early (`mogui ... | head -1`) ends the command quietly: no stack trace, no error line. */
import { expect, test } from "bun:test";
import { binaryPath, e2eEnv } from "../helpers/binary.ts";
import { tempDir } from "../helpers/paths.ts";

for (const args of [["demo"], ["help", "exit-codes"]]) {
  test(`mogui ${args.join(" ")} | head -c 1: nothing on stderr`, async () => {
    // The shell's pipe is the real thing: head exits after one byte and the binary's next write meets EPIPE.
    const p = Bun.spawn(["sh", "-c", '"$0" "$@" 2>err.txt | head -c 1 >/dev/null; cat err.txt', binaryPath(), ...args], {
      cwd: tempDir("pipe"),
      env: e2eEnv(),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    expect(out).not.toContain("EPIPE");
    expect(out).not.toContain("    at ");
    expect(out).toBe("");
  });
}
