// master-bootstrap-live (stdin payload, fake bd, work ledger), master-recover (read-only on a real workspace),
// lineage append from stdin, and the original-name shims, through the compiled binary.
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryPath, e2eEnv, runBinary } from "../../helpers/binary.ts";
import { makeRepo } from "../../helpers/git.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const FX = join(ROOT, "fixtures", "lifecycle");
const live = (stdin: string | undefined, extra: Record<string, string> = {}, ...args: string[]) => runBinary(["master-bootstrap-live", "--handoff-dir", join(FX, "handoffs"), ...args], { env: e2eEnv({ MOGUI_HOME: tempDir(), ...extra }), stdin });

describe("master-bootstrap-live end to end", () => {
  test("reads the SessionStart payload; bd is asked for tracks and memories; memory bodies never printed", async () => {
    const log = join(tempDir(), "bd.log");
    const r = await live('{"session_id":"abc","source":"startup"}', { BD_FAKE_LOG: log });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain("## Active tracks\nbd-1 [P1] [task] in_progress - Ship the parser\nbd-2 [P2] [task] in_progress - Review the gate\n## Charter\n");
    expect(r.stdout).toContain("[DUAL-INSTANCE] none\n");
    expect(r.stdout).not.toContain("secret memory body");
    expect(readFileSync(log, "utf8").split("\n").filter(Boolean).sort()).toEqual(["bd list --status in_progress", "bd prime --memories-only"]);
  });
  test("compact source suppresses role and tracks and prepends the E12 banner; no stdin and bad stdin are fine", async () => {
    const c = await live('{"source":"compact"}', { CHARTER_POINTER: "see ops/MASTER-OPERATIONS.md" });
    expect(c.stdout).toStartWith("[E12-CRITICAL] compact first-injection warning");
    expect(c.stdout).toContain("[E12] compact: tracks/role suppressed");
    expect(c.stdout).not.toContain("Current Role:");
    expect(c.stdout).toContain("## Charter\nsee ops/MASTER-OPERATIONS.md\n");
    for (const stdin of [undefined, "", "not json", "[1,2]"]) {
      const r = await live(stdin);
      expect(r.code).toBe(0);
      expect(r.stdout).toStartWith("[MASTER-BOOTSTRAP v1]\n## Role State\nCurrent Role: Feature Implementation\n");
    }
  });
  test("tracks from the work ledger when it exists (no bd list); bd failures are alerts, exit 0", async () => {
    const home = tempDir();
    const e = e2eEnv({ MOGUI_HOME: home });
    expect((await runBinary(["tracks", "register", "T-7", "--title", "Ledger track"], { env: e })).code).toBe(0);
    const log = join(tempDir(), "bd.log");
    const r = await runBinary(["master-bootstrap-live", "--handoff-dir", join(FX, "handoffs")], { env: { ...e, BD_FAKE_LOG: log } });
    expect(r.stdout).toContain("## Active tracks\nT-7 Ledger track [REGISTERED]\n## Charter");
    expect(readFileSync(log, "utf8")).toBe("bd prime --memories-only\n");
    const bad = await live("{}", { BD_FAKE_FAIL: "1" }, "--bd", "/nonexistent/bd");
    expect(bad.code).toBe(0);
    expect(bad.stdout).toContain("[AUDIT-ALERT] tracks: collection failed bd: executable not found");
  });
  test("a stdin pipe that never closes does not hang the hook", async () => {
    const p = Bun.spawn([binaryPath(), "master-bootstrap-live", "--handoff-dir", join(FX, "handoffs")], {
      env: e2eEnv({ MOGUI_HOME: tempDir() }),
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
    });
    const t0 = Date.now();
    const code = await p.exited;
    expect(code).toBe(0);
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(await new Response(p.stdout).text()).toStartWith("[MASTER-BOOTSTRAP v1]");
    p.stdin.end();
  });
  test("stdin from a regular file is read; from an endless character device (/dev/zero) it is ignored, not hung on", async () => {
    const payload = join(tempDir(), "payload.json");
    writeFileSync(payload, '{"source":"compact"}');
    for (const [from, banner] of [
      [payload, true],
      ["/dev/zero", false],
    ] as const) {
      const p = Bun.spawn([binaryPath(), "master-bootstrap-live", "--handoff-dir", join(FX, "handoffs")], {
        env: e2eEnv({ MOGUI_HOME: tempDir() }),
        stdin: Bun.file(from),
        stdout: "pipe",
        stderr: "pipe",
      });
      const timer = setTimeout(() => p.kill(), 10_000);
      const code = await p.exited;
      clearTimeout(timer);
      expect(code).toBe(0);
      const out = await new Response(p.stdout).text();
      expect(out.startsWith("[E12-CRITICAL]")).toBe(banner);
      expect(out).toContain("[MASTER-BOOTSTRAP v1]");
    }
  });
  test("usage errors are still exit 2", async () => {
    const r = await runBinary(["master-bootstrap-live"], { env: e2eEnv() });
    expect(r.code).toBe(2);
    expect(r.stderr).toStartWith("mogui: missing required flag --handoff-dir");
  });
});

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out[p] = `${st.mtimeMs}:${createHash("sha256").update(readFileSync(p)).digest("hex")}`;
    }
  };
  walk(dir);
  return out;
}

describe("master-recover end to end: read-only", () => {
  test("no file in the workspace changes and no process is signalled; verify-successor grades the report", async () => {
    const f = makeRepo();
    const ws = f.dir;
    copyFileSync(join(FX, "charter.md"), join(ws, "charter.md"));
    copyFileSync(join(FX, "handoffs", "2026-02-01-gen2.md"), join(ws, "handoff.md"));
    writeFileSync(join(ws, "ledger.jsonl"), '{"event":"register","track_id":"T1","title":"Parser","ts":1}\n');
    mkdirSync(join(ws, "bin"));
    writeFileSync(join(ws, "bin", "watch-lc.sh"), "sleep 30\n");
    const monitor = Bun.spawn(["sh", join(ws, "bin", "watch-lc.sh")], { stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    try {
      await Bun.sleep(100);
      const before = snapshot(ws);
      const r = await runBinary(["master-recover", "--charter", join(ws, "charter.md"), "--handoff", join(ws, "handoff.md"), "--ledger", join(ws, "ledger.jsonl"), "--repo", f.repo, "--monitor-pattern", join(ws, "bin", "watch-lc.sh"), "--json"], {
        env: e2eEnv({ MOGUI_HOME: tempDir() }),
      });
      expect(r.code).toBe(0);
      expect(snapshot(ws)).toEqual(before);
      expect(monitor.exitCode).toBeNull();
      expect(monitor.signalCode).toBeNull();
      const report = JSON.parse(r.stdout);
      expect(report.steps.map((s: { step: string; status: string }) => `${s.step} ${s.status}`)).toEqual(["0 OK", "1 OK", "1-ledger OK", "2-3 OK", "4 OK", "5 WARN", "6 OK"]);
      expect(report.repositories[0]).toMatchObject({ path: f.repo, branch: "main", dirty: false, status: "OK" });
      expect(report.manual_actions).toContain(`Terminate then re-arm monitor pattern '${join(ws, "bin", "watch-lc.sh")}' after takeover.`);
      const file = join(tempDir(), "report.json");
      writeFileSync(file, r.stdout);
      const v = await runBinary(["master-succeed", "verify-successor", "--report", file, "--json"], { env: e2eEnv() });
      expect(JSON.parse(v.stdout)).toEqual({ checks: ["open tracks recited", "baseline matched"], evidence: "checks=open tracks recited,baseline matched", status: "PARTIAL" });
    } finally {
      monitor.kill("SIGKILL");
    }
  });
});

describe("handoff round trip", () => {
  test("master-succeed handoff output boots through master-bootstrap with the frozen role", async () => {
    const h = await runBinary(["master-succeed", "handoff", "--spec", join(FX, "handoff-spec.json")], { env: e2eEnv() });
    expect(h.code).toBe(0);
    const file = join(tempDir(), "handoff.md");
    writeFileSync(file, JSON.parse(h.stdout).handoff);
    const b = await runBinary(["master-bootstrap", "--charter", join(FX, "charter.md"), "--handoff", file, "--json"], { env: e2eEnv() });
    expect(b.code).toBe(0);
    expect(JSON.parse(b.stdout)).toMatchObject({ role_state: { role: "Feature Implementation", lock_enabled: true, frozen: "all other roles", unlock: "explicit user instruction only" }, warnings: [] });
  });
});

describe("lineage from stdin and the shims", () => {
  test("lineage append --entry - reads stdin; the section lands on disk", async () => {
    const ledger = join(tempDir(), "MASTER-LINEAGE.md");
    const r = await runBinary(["lineage", "append", "--ledger", ledger, "--entry", "-"], { env: e2eEnv(), stdin: readFileSync(join(FX, "lineage-entry.json"), "utf8") });
    expect(r.code).toBe(0);
    expect(readFileSync(ledger, "utf8")).toStartWith("## Gen 2 — 2026-02-01T10:00:00Z\n\n- **Generation**: 2\n");
  });
  test("scripts/master-succeed, master-bootstrap, master-bootstrap-live, master-recover exec the binary", async () => {
    for (const [shim, args, want] of [
      ["master-succeed", ["--json", "detect", "handoff to successor"], '"status":"IMMEDIATE"'],
      ["master-bootstrap", ["--charter", join(FX, "charter.md")], "role=\n"],
      ["master-bootstrap-live", ["--handoff-dir", join(FX, "handoffs")], "[MASTER-BOOTSTRAP v1]"],
      ["master-recover", ["--charter", "/nope", "--handoff", "/nope"], "0 MISS: Charter missing: /nope"],
    ] as const) {
      const p = Bun.spawn([join(ROOT, "scripts", shim), ...args], { env: e2eEnv({ MOGUI_HOME: tempDir() }), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
      expect(code).toBe(0);
      expect(out).toContain(want);
    }
  });
});
