/** mogui publishes through its own gate: the repository's tracked files must pass `mogui redaction-scan`. */
import { expect, test } from "bun:test";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { ROOT } from "../../helpers/paths.ts";

test("the mogui repository passes its own redaction gate (tracked mode)", async () => {
  const r = await runBinary(["redaction-scan", "-C", ROOT], { env: e2eEnv() });
  expect(r.stderr).not.toContain("finding(s)");
  expect(r.code).toBe(0);
}, 120_000);
