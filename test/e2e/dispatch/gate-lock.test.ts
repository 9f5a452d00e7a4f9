/**
 * The gate lock through the compiled binary (DECISIONS D33): a kernel flock on `<tickets>/.dispatch-gate.lock`, the
 * file the Python original locks with fcntl.flock. A Python holder makes `dispatch-gate check` wait (and the timeout
 * name it), the check proceeds once Python lets go, Python waits for mogui under real concurrency, and a lock file
 * left empty or naming a live unrelated pid costs nothing. No wall-clock assertions: "costs nothing" is a check
 * that succeeds with a 1 ms lock timeout.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { binaryPath, e2eEnv, runBinary } from "../../helpers/binary.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const PYTHON = "/usr/bin/python3";
const PY_FLOCK = join(ROOT, "test", "fixtures-scripts", "py-flock.py");
const linux = process.platform === "linux";

function setup(extra: Record<string, string> = {}) {
  const home = tempDir("gate-lock-");
  const contract = join(home, "c.md");
  writeFileSync(contract, "implement the parser\n");
  const policy = join(home, "p.json");
  writeFileSync(policy, JSON.stringify({ version: 2, tiers: { top: ["m-top"], efficient: ["m-eff"] }, fanout_caps: { top: 5 }, window_seconds: 3600 }));
  const tickets = join(home, "dispatch-tickets");
  mkdirSync(tickets);
  return { home, contract: [contract, policy] as const, tickets, lock: join(tickets, ".dispatch-gate.lock"), ledger: join(home, "dispatch-ledger.jsonl"), env: e2eEnv({ MOGUI_HOME: home, ...extra }) };
}

const checkArgs = ([contract, policy]: readonly [string, string]) => ["dispatch-gate", "check", "--runtime", "codex", "--model", "m-eff", "--contract", contract, "--agents", "1", "--completion-channel", "orchestration", "--tier-policy", policy];

async function firstLine(proc: Bun.Subprocess): Promise<string> {
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let seen = "";
  while (!seen.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`child exited early: ${seen}`);
    seen += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return seen.trim();
}

/** True once `pid` has `path` open: mogui keeps the lock file open while it retries, so it is waiting on it. */
function hasOpen(pid: number, path: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

describe.if(linux && existsSync(PYTHON))("dispatch-gate check and the Python original's fcntl.flock", () => {
  test("python holds the gate lock: the check waits, times out naming python, writes nothing", async () => {
    const s = setup({ DISPATCH_GATE_LOCK_TIMEOUT_MS: "300" });
    const py = Bun.spawn([PYTHON, PY_FLOCK, "hold", s.lock], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const pyPid = Number((await firstLine(py)).split(" ")[1]);
    try {
      const r = await runBinary(checkArgs(s.contract), { env: s.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`dispatch-gate: LEDGER_UNAVAILABLE: ${s.ledger}: could not take lock ${s.lock} within 300 ms (held by pid ${pyPid} (python3))`);
      expect(existsSync(s.ledger)).toBe(false);
      expect(readdirSync(s.tickets)).toEqual([".dispatch-gate.lock"]);
    } finally {
      (py.stdin as import("bun").FileSink).end();
      await py.exited;
    }
  });

  test("python holds the gate lock: a check started meanwhile waits on it, then proceeds once python lets go", async () => {
    const s = setup();
    const py = Bun.spawn([PYTHON, PY_FLOCK, "hold", s.lock], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    await firstLine(py);
    const check = Bun.spawn([binaryPath(), ...checkArgs(s.contract)], { env: s.env, stdout: "pipe", stderr: "pipe" });
    try {
      // The check has the lock file open (it is retrying on it) and has written nothing.
      while (!hasOpen(check.pid, s.lock)) {
        expect(check.exitCode).toBeNull();
        await Bun.sleep(5);
      }
      expect(existsSync(s.ledger)).toBe(false);
    } finally {
      (py.stdin as import("bun").FileSink).end();
      await py.exited;
    }
    const [stdout, code] = await Promise.all([new Response(check.stdout).text(), check.exited]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout).allow).toBe(true);
    expect(readFileSync(s.ledger, "utf8").trimEnd().split("\n").length).toBe(1);
  });

  test("24 concurrent checks and a python auditor on the same lock: no ledger change while python holds it, attempts 1..24", async () => {
    const s = setup();
    const n = 24;
    const auditor = Bun.spawn([PYTHON, PY_FLOCK, "audit", s.lock, s.ledger, String(n)], { stdout: "pipe", stderr: "pipe" });
    const runs = await Promise.all(Array.from({ length: n }, () => runBinary(checkArgs(s.contract), { env: s.env })));
    for (const r of runs) expect([r.code, r.stderr]).toEqual([0, ""]);
    const report = (await new Response(auditor.stdout).text()).trim();
    expect(await auditor.exited).toBe(0);
    const [, audits, , violations] = report.split(" ");
    expect(Number(audits)).toBeGreaterThan(0);
    expect(violations).toBe("0");
    const rows = readFileSync(s.ledger, "utf8")
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { attempt: number });
    expect(rows.map((r) => r.attempt).sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
  }, 60_000);
});

describe.if(linux || process.platform === "darwin")("what the gate lock file says holds nobody up", () => {
  test("an empty lock file (the Python original leaves one), a live unrelated pid, a dead pid: each check passes with a 1 ms lock timeout", async () => {
    const sleeper = Bun.spawn(["sleep", "30"]);
    try {
      const dead = Bun.spawn(["true"]);
      await dead.exited;
      const notes = ["", `${sleeper.pid} ${hostname()} ${Date.now()}\n`, `${dead.pid} ${hostname()} ${Date.now()}\n`];
      await Promise.all(
        notes.map(async (note) => {
          const s = setup({ DISPATCH_GATE_LOCK_TIMEOUT_MS: "1" });
          writeFileSync(s.lock, note);
          const r = await runBinary(checkArgs(s.contract), { env: s.env });
          expect(r.stderr).toBe("");
          expect(r.code).toBe(0);
          expect(readFileSync(s.lock, "utf8")).toBe("");
        }),
      );
    } finally {
      sleeper.kill("SIGKILL");
      await sleeper.exited;
    }
  });
});
