// The one way to warn (src/lib/log.ts): colour on stderr only when it is wanted, the same bytes otherwise.
import { describe, expect, test } from "bun:test";
import type { ColorMode, Ctx } from "../../../src/lib/context.ts";
import { logger } from "../../../src/lib/log.ts";

function errCtx(env: Record<string, string>, tty: boolean, color?: ColorMode): { c: Ctx; err: () => string } {
  let err = "";
  const c = { io: { stdout: () => {}, stderr: (t: string) => void (err += t), stdoutIsTTY: tty, stderrIsTTY: tty }, env, cwd: "/", debug: false, color } as unknown as Ctx;
  return { c, err: () => err };
}

function say(c: Ctx): void {
  logger(c, "redaction-scan").log("FAIL — 2 finding(s) (fail-closed)");
  logger(c, "sandbox run").log("WARNING: running UNPROTECTED (--allow-unenforced)");
  logger(c, "").log("dispatch-gate: BLOCKED by the gate");
  logger(c, "worker-reap").warn("ledger.jsonl:3: bad line");
}

const PLAIN = "redaction-scan: FAIL — 2 finding(s) (fail-closed)\nsandbox run: WARNING: running UNPROTECTED (--allow-unenforced)\ndispatch-gate: BLOCKED by the gate\nworker-reap: warning: ledger.jsonl:3: bad line\n";
const red = (w: string) => `\x1b[31m${w}\x1b[39m`;
const yellow = (w: string) => `\x1b[33m${w}\x1b[39m`;
const COLOURED = `redaction-scan: ${red("FAIL")} — 2 finding(s) (fail-closed)\nsandbox run: ${yellow("WARNING")}: running UNPROTECTED (--allow-unenforced)\ndispatch-gate: ${red("BLOCKED")} by the gate\nworker-reap: ${yellow("warning")}: ledger.jsonl:3: bad line\n`;

describe("verdict words on stderr", () => {
  test("colour on (FORCE_COLOR=1, --color=always, a TTY) colours FAIL and BLOCKED red, WARNING and the warning tag yellow", () => {
    for (const [env, tty, color] of [
      [{ FORCE_COLOR: "1" }, false, undefined],
      [{}, false, "always"],
      [{}, true, undefined],
      [{ NO_COLOR: "1" }, true, "always"],
    ] as const) {
      const { c, err } = errCtx(env, tty, color);
      say(c);
      expect(err()).toBe(COLOURED);
    }
  });

  test("colour off (not a TTY, NO_COLOR, TERM=dumb, --color=never, FORCE_COLOR=0) gives the plain bytes the tests pin", () => {
    for (const [env, tty, color] of [
      [{}, false, undefined],
      [{ NO_COLOR: "1" }, true, undefined],
      [{ TERM: "dumb" }, true, undefined],
      [{ FORCE_COLOR: "1" }, true, "never"],
      [{ FORCE_COLOR: "0" }, false, undefined],
    ] as const) {
      const { c, err } = errCtx(env, tty, color);
      say(c);
      expect(err()).toBe(PLAIN);
    }
  });

  test("only the whole upper-case words: FAILED, failure, WARNINGS and paths stay as they are", () => {
    const { c, err } = errCtx({ FORCE_COLOR: "1" }, false);
    logger(c, "x").log("FAILED failure WARNINGS /tmp/FAIL_dir fail");
    expect(err()).toBe("x: FAILED failure WARNINGS /tmp/FAIL_dir fail\n");
  });

  test("every line is written at once: no throttling of repeated lines", () => {
    const { c, err } = errCtx({}, false);
    for (let i = 0; i < 12; i++) logger(c, "worker-reap").warn("same line");
    expect(err()).toBe("worker-reap: warning: same line\n".repeat(12));
  });
});
