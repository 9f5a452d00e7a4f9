// The README's test command: build dist/mogui (the e2e tests run the real binary), then run every bun test.
// Exit code is bun test's own.
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const bun = process.execPath;
const build = Bun.spawnSync([bun, join(root, "scripts", "build.ts")], { cwd: root, stdout: "inherit", stderr: "inherit" });
if (build.exitCode !== 0) {
  process.exitCode = build.exitCode ?? 1;
} else {
  const t = Bun.spawnSync([bun, "test", "--timeout", "60000", ...process.argv.slice(2)], {
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
    env: { ...process.env, MOGUI_TEST_BINARY: join(root, "dist", "mogui") },
  });
  process.exitCode = t.exitCode ?? 1;
}
