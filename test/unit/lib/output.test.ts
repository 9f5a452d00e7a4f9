import { describe, expect, test } from "bun:test";
import { moguiHome, resolveStatePath, useColor, type Ctx } from "../../../src/lib/context.ts";
import { paint, printJson } from "../../../src/lib/output.ts";

function ctx(env: Record<string, string | undefined>, tty: boolean): { c: Ctx; out: () => string } {
  let out = "";
  const c = {
    io: { stdout: (t: string) => void (out += t), stderr: () => {}, stdoutIsTTY: tty, stderrIsTTY: tty },
    env,
    cwd: "/work",
  } as unknown as Ctx;
  return { c, out: () => out };
}

describe("colour", () => {
  test("only on a TTY, never with NO_COLOR (any value, even empty), never for TERM=dumb", () => {
    expect(useColor({ env: {} }, true)).toBe(true);
    expect(useColor({ env: {} }, false)).toBe(false);
    expect(useColor({ env: { NO_COLOR: "1" } }, true)).toBe(false);
    expect(useColor({ env: { NO_COLOR: "" } }, true)).toBe(false);
    expect(useColor({ env: { TERM: "dumb" } }, true)).toBe(false);
  });

  test("paint adds SGR codes only when colour is on", () => {
    expect(paint(ctx({}, true).c, "stderr", "red", "x")).toBe("\x1b[31mx\x1b[39m");
    expect(paint(ctx({}, false).c, "stderr", "red", "x")).toBe("x");
    expect(paint(ctx({ NO_COLOR: "1" }, true).c, "stdout", "green", "x")).toBe("x");
  });
});

describe("data on stdout", () => {
  test("--json is one compact document; otherwise indented", () => {
    const a = ctx({}, false);
    printJson(a.c, { b: 1, a: [1, 2] }, true);
    expect(a.out()).toBe('{"b":1,"a":[1,2]}\n');
    const b = ctx({}, false);
    printJson(b.c, { b: 1 }, false);
    expect(b.out()).toBe('{\n  "b": 1\n}\n');
  });
});

describe("state paths (DECISIONS D2)", () => {
  test("flag > env var > MOGUI_HOME > ~/.mogui, relative paths against the cwd", () => {
    const c = { env: { HOME: "/home/u" }, cwd: "/work" };
    expect(moguiHome(c)).toBe("/home/u/.mogui");
    expect(moguiHome({ env: { MOGUI_HOME: "state" }, cwd: "/work" })).toBe("/work/state");
    const env = { HOME: "/home/u", MOGUI_HOME: "/m", DISPATCH_GATE_LEDGER: "l.jsonl" };
    expect(resolveStatePath({ env, cwd: "/work" }, "f.jsonl", "DISPATCH_GATE_LEDGER", "dispatch-ledger.jsonl")).toBe("/work/f.jsonl");
    expect(resolveStatePath({ env, cwd: "/work" }, undefined, "DISPATCH_GATE_LEDGER", "dispatch-ledger.jsonl")).toBe("/work/l.jsonl");
    expect(resolveStatePath({ env: { MOGUI_HOME: "/m" }, cwd: "/work" }, undefined, "DISPATCH_GATE_LEDGER", "dispatch-ledger.jsonl")).toBe("/m/dispatch-ledger.jsonl");
  });
});

describe("diagnostics (src/lib/log.ts)", () => {
  function errCtx(tty: boolean): { c: Ctx; err: () => string } {
    let err = "";
    const c = { io: { stdout: () => {}, stderr: (t: string) => void (err += t), stdoutIsTTY: tty, stderrIsTTY: tty }, env: { NO_COLOR: "1" }, cwd: "/", debug: false } as unknown as Ctx;
    return { c, err: () => err };
  }

  test("one consola per run, on stderr, tagged with the command", async () => {
    const { logger } = await import("../../../src/lib/log.ts");
    const { c, err } = errCtx(false);
    logger(c, "tracks").warn("bad line 3");
    logger(c, "lineage show").info("no generations");
    expect(err()).toBe("tracks: warning: bad line 3\nlineage show: info: no generations\n");
  });

  test("progress: one updating line on a TTY, at most one plain line per tenth otherwise", async () => {
    const { progress } = await import("../../../src/lib/log.ts");
    const t = errCtx(true);
    const p = progress(t.c, "scan");
    p.update(1, 2, "a");
    p.end("2 files");
    expect(t.err()).toBe("\r\x1b[2Kscan: 1/2 a\r\x1b[2Kscan: 2 files\n");
    const plain = errCtx(false);
    const q = progress(plain.c, "scan");
    for (let i = 0; i <= 100; i++) q.update(i, 100);
    q.end("done");
    expect(plain.err().split("\n").length - 1).toBe(12);
  });
});
