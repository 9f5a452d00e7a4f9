/**
 * mogui preflight end to end with a fake host: a temp HOME and a PATH holding only fake orca, bd, gh, claude,
 * codex, cursor-agent and git executables (fixtures/host), in each READY / WAIVED / BLOCKED combination.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { binaryPath, runBinary } from "../../helpers/binary.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

const FAKES = ["orca", "bd", "gh", "claude", "codex", "cursor-agent", "git"];

interface Host {
  home: string;
  env: Record<string, string>;
}

function host(opts: { tools?: string[]; skills?: boolean; rules?: string | null; env?: Record<string, string> } = {}): Host {
  const root = tempDir("mogui-host-");
  const home = join(root, "home");
  const bin = join(root, "bin");
  mkdirSync(bin, { recursive: true });
  for (const t of opts.tools ?? FAKES) symlinkSync(join(ROOT, "fixtures", "host", t), join(bin, t));
  if (opts.skills ?? true) for (const s of ["orca-cli", "orchestration", "superpowers", "ponytail"]) mkdirSync(join(home, ".claude", "skills", s), { recursive: true });
  mkdirSync(join(home, ".claude", "plugins"), { recursive: true });
  writeFileSync(join(home, ".claude", "plugins", "installed_plugins.json"), '{"plugins":{"codex@openai-codex":[{"version":"1.0.0"}]}}\n');
  const rules = opts.rules === undefined ? "acme|Acme codename|acme-[a-z]+\nkr|Hangul codename|사내[가-힣]+\n" : opts.rules;
  if (rules !== null) {
    mkdirSync(join(home, ".config"), { recursive: true });
    writeFileSync(join(home, ".config", "redaction-extra.txt"), rules);
  }
  const ops = join(root, "ops");
  mkdirSync(join(ops, "docs"), { recursive: true });
  mkdirSync(join(ops, ".beads"), { recursive: true });
  writeFileSync(join(ops, "docs", "MASTER-OPERATIONS.md"), "# ops\n");
  return { home, env: { HOME: home, PATH: bin, ORCA_AGENT_CLI: "claude", FAKE_BD_WHERE: join(ops, ".beads"), NO_COLOR: "1", ...opts.env } };
}

const preflight = (h: Host, args: string[] = []) => runBinary(["preflight", ...args], { env: h.env, cwd: h.home });

const line = (out: string, label: string) => out.split("\n").filter((l) => new RegExp(`^\\S+ +${label} `).test(l));

describe("preflight on a fake host", () => {
  test("READY: every required check passes (gitleaks and ctx only WARN); exit 0", async () => {
    const h = host();
    const r = await preflight(h);
    expect(r.code).toBe(0);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe("INFO resolved Orca CLI: orca");
    expect(lines.slice(1, 18)).toEqual([
      "PASS orca           orca status ok",
      "PASS orchestration  Run run_abc123 bound",
      "PASS skills         orca-cli and orchestration installed",
      "PASS codex-plugin   codex@openai-codex installed",
      "PASS skill-stack    superpowers (methodology) installed",
      "PASS skill-stack    ponytail (restraint) installed",
      `PASS redaction-extra 2 rules load from ${h.home}/.config/redaction-extra.txt`,
      `PASS bd             beads at ${h.env.FAKE_BD_WHERE!.replace(/\/\.beads$/, "")}`,
      expect.stringMatching(new RegExp(`^PASS mogui          mogui \\d+\\.\\d+\\.\\d+; MOGUI_HOME ${h.home}/\\.mogui writable \\(will be created\\)$`)),
      `PASS instance-config ${h.home}/.mogui/config/instance-runtime.json absent (values from the environment)`,
      "PASS agent-cli      claude on PATH",
      "PASS worker-runtime codex on PATH",
      "PASS worker-runtime cursor-agent on PATH",
      expect.stringMatching(/^WARN gitleaks {7}gitleaks missing \(brew install gitleaks\)/),
      "WARN ctx            ctx missing; see https://ctx.rs",
      "PASS git            git on PATH",
      "PASS gh             gh on PATH",
    ]);
    expect(r.stdout).toContain("PASS gh-auth        logged in with the workflow scope\n");
    expect(r.stdout).toContain(`PASS gate-ledger    ${h.home}/.mogui/dispatch-ledger.jsonl (directory will be created)\n`);
    // D39: no Claude Code settings with the sandbox on here (and no product configured): a warning, not a block.
    expect(r.stdout).toContain("WARN protection     product NOT protected: sandbox enabled, fails if unavailable, unsandboxed fallback off, product denied");
    expect(r.stdout).toEndWith(
      [
        "",
        "Preflight summary",
        "  PASS: 17",
        "  WARN: 3",
        "  FAIL: 0",
        "  WAIVED: 0",
        "  !! ESSENTIAL COMPONENTS MISSING (1) — the harness will not behave as documented",
        "  !!   ctx ctx missing; see https://ctx.rs",
        "  !! These are not preferences. Install them, or expect the documented behaviour to be missing.",
        "  READY: all required checks passed",
        "",
      ].join("\n"),
    );
    expect(r.stdout).not.toContain("acme-");
    expect(r.stdout).not.toContain("사내");
  });

  test("READY WITH WAIVERS: waived FAILs are downgraded, a typo is named and stays enforced; exit 0", async () => {
    const h = host({ tools: FAKES.filter((t) => t !== "bd"), env: { PREFLIGHT_WAIVE: "bd, gh-auht" } });
    const r = await preflight(h);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("WAIVED bd           bd not found on PATH; install beads (bd) (downgraded from FAIL by PREFLIGHT_WAIVE)\n");
    expect(r.stdout).toContain("  WAIVED: 1 (bd)\n");
    expect(r.stdout).toContain("  NOTE: PREFLIGHT_WAIVE named checks that did not run: gh-auht; those checks are still enforced\n");
    expect(r.stdout).not.toContain("  !!   bd ");
    expect(r.stdout).toEndWith("  READY WITH WAIVERS: 1 required check(s) were downgraded, not satisfied\n");
  });

  test("BLOCKED: Orca down, orchestration not checked; exit 1", async () => {
    const h = host({ env: { FAKE_ORCA_STATUS: "down" } });
    const r = await preflight(h);
    expect(r.code).toBe(1);
    expect(line(r.stdout, "orca")).toEqual(["FAIL orca           orca status --json did not report ok (is the Orca app running?)"]);
    expect(line(r.stdout, "orchestration")).toEqual(["FAIL orchestration  not checked because Orca status failed"]);
    expect(r.stdout).toContain("  FAIL: 2\n");
    expect(r.stdout).toContain("  !!   orca orca status --json did not report ok");
    expect(r.stdout).toEndWith("  BLOCKED: fix every FAIL before onboarding\n");
  });

  test("BLOCKED even with waivers when one FAIL is not waived", async () => {
    const h = host({ tools: FAKES.filter((t) => t !== "bd" && t !== "gh"), env: { PREFLIGHT_WAIVE: "bd" } });
    const r = await preflight(h);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("FAIL gh             gh not found on PATH\n");
    expect(r.stdout).toContain("WARN gh-auth        not checked: gh missing\n");
    expect(r.stdout).toEndWith("  BLOCKED: fix every FAIL before onboarding\n");
  });

  const orchestration: Array<[string, string]> = [
    ["none", "FAIL orchestration  RPC reachable but no Run is bound to this terminal"],
    ["legacy", "FAIL orchestration  the bound Run is legacy and inspect-only"],
    ["legacy_read_only", "FAIL orchestration  retained legacy coordinator"],
    ["rpc_down", "FAIL orchestration  RPC unavailable"],
  ];
  for (const [mode, expected] of orchestration) {
    test(`orchestration: ${mode}`, async () => {
      const r = await preflight(host({ env: { FAKE_ORCA_RUN: mode } }));
      expect(r.code).toBe(1);
      expect(line(r.stdout, "orchestration")[0]).toStartWith(expected);
    });
  }

  test("every other FAIL and WARN label", async () => {
    const h = host({
      tools: ["orca", "bd", "gh", "git"],
      skills: false,
      rules: "good|Fine|zqvx\nbroken\nlook|Lookahead|x(?=y)\n",
      env: { ORCA_AGENT_CLI: "codex", FAKE_GH_AUTH: "noworkflow", FAKE_BD_WHERE: "/tmp", DISPATCH_GATE_LEDGER: "/nonexistent/dir/ledger.jsonl" },
    });
    const r = await preflight(h);
    expect(r.code).toBe(1);
    const out = r.stdout;
    expect(line(out, "skills")[0]).toBe("FAIL skills         orca-cli and orchestration skills not found; install: skills add stablyai/orca -g --skill orca-cli --skill orchestration (or run with --fix)");
    expect(line(out, "codex-plugin")[0]).toBe("INFO codex-plugin   skipped (ORCA_AGENT_CLI is not claude)");
    expect(line(out, "skill-stack")).toEqual([
      "WARN skill-stack    superpowers (methodology) missing: without it the master reads the charter as advice rather than procedure; install the superpowers skill pack for codex",
      "WARN skill-stack    ponytail (restraint) missing: without it the master over-builds; it pairs with the methodology layer; install the ponytail skill pack for codex",
    ]);
    expect(line(out, "redaction-extra")[0]).toStartWith("FAIL redaction-extra 2 of 3 rules in ");
    expect(line(out, "bd")[0]).toBe("FAIL bd             bd points at /tmp, which is not the ops repository (no docs/MASTER-OPERATIONS.md)");
    expect(line(out, "agent-cli")[0]).toBe("FAIL agent-cli      codex (ORCA_AGENT_CLI) not found on PATH");
    expect(line(out, "worker-runtime")).toEqual(["FAIL worker-runtime neither codex nor cursor-agent on PATH; the master cannot delegate"]);
    expect(line(out, "gh-auth")[0]).toBe("WARN gh-auth        logged in without the workflow scope: gh auth refresh -s workflow");
    expect(line(out, "gate-ledger")[0]).toBe("FAIL gate-ledger    /nonexistent/dir does not exist and cannot be created");
    expect(out).not.toContain("zqvx");
  });

  test("missing rules file, unset agent, gh logged out, missing orca, bd where failing", async () => {
    const h = host({ tools: ["bd", "gh", "git", "codex"], rules: null, env: { ORCA_AGENT_CLI: "", FAKE_GH_AUTH: "out", FAKE_BD_WHERE: "fail" } });
    const r = await preflight(h);
    expect(r.code).toBe(1);
    expect(line(r.stdout, "orca")[0]).toMatch(/^FAIL orca {11}orca not found; install: .*; follow-up: enable Settings > Orca CLI > Shell command$/);
    expect(line(r.stdout, "redaction-extra")[0]).toStartWith(`FAIL redaction-extra ${h.home}/.config/redaction-extra.txt missing; create it with one rule a line: id|description|regex`);
    expect(line(r.stdout, "agent-cli")[0]).toBe("FAIL agent-cli      ORCA_AGENT_CLI is unset (claude, codex or cursor-agent)");
    expect(line(r.stdout, "worker-runtime")).toEqual(["PASS worker-runtime codex on PATH", "WARN worker-runtime cursor-agent missing; codex carries every delegation"]);
    expect(line(r.stdout, "gh-auth")[0]).toBe("WARN gh-auth        not logged in: gh auth login");
    expect(line(r.stdout, "bd")[0]).toBe("PASS bd             bd present (no .beads here; not confirmed)");
  });

  test("--json report and usage errors", async () => {
    const h = host({ env: { PREFLIGHT_WAIVE: "ctx" } });
    const r = await preflight(h, ["--json"]);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(Object.keys(j).sort()).toEqual(["checks", "essential_gaps", "orca_cli", "summary", "unknown_waivers", "verdict"]);
    expect(j.verdict).toBe("READY");
    expect(j.unknown_waivers).toEqual([]);
    expect(j.checks[0]).toEqual({ label: "orca", status: "PASS", message: "orca status ok" });
    expect(j.summary).toEqual({ pass: 17, warn: 3, fail: 0, waived: 0, waived_labels: [] });
    const bad = await preflight(h, ["--bogus"]);
    expect(bad.code).toBe(2);
    expect((await preflight(h, ["extra"])).code).toBe(2);
  });

  test("no network without --fix: a stub npx (records its calls, then sleeps) is never called; with --fix it is", async () => {
    const h = host({ skills: false });
    const bin = h.env.PATH!;
    const record = join(h.home, "npx-calls");
    writeFileSync(join(bin, "npx"), `#!/bin/sh\necho "$*" >> '${record}'\nsleep "\${NPX_SLEEP:-0}"\n`, { mode: 0o755 });
    symlinkSync("/bin/sh", join(bin, "sh"));
    symlinkSync(Bun.which("sleep")!, join(bin, "sleep"));
    const r = await runBinary(["preflight"], { env: { ...h.env, NPX_SLEEP: "30" }, cwd: h.home });
    expect(r.code).toBe(1);
    expect(line(r.stdout, "skills")[0]).toStartWith("FAIL skills         orca-cli and orchestration skills not found");
    expect(existsSync(record)).toBe(false);
    const fix = await runBinary(["preflight", "--fix"], { env: h.env, cwd: h.home, stdin: "n\n" });
    expect(fix.code).toBe(1);
    expect(readFileSync(record, "utf8")).toBe("--no-install skills list -g\n");
  });

  test("--fix asks first: no leaves it, yes (or --yes) installs the skills, then re-lists", async () => {
    const mk = () => {
      const h = host({ tools: [...FAKES, "skills"], skills: false });
      h.env.FAKE_SKILLS_STATE = join(h.home, "skills-state");
      return h;
    };
    const no = mk();
    const r1 = await runBinary(["preflight", "--fix"], { env: no.env, cwd: no.home, stdin: "n\n" });
    expect(r1.code).toBe(1);
    expect(r1.stderr).toContain("preflight: run `skills add stablyai/orca -g --skill orca-cli --skill orchestration` and `skills update orchestration -g`? [y/N] preflight: left unchanged\n");
    expect(line(r1.stdout, "skills")[0]).toStartWith("FAIL skills ");
    const yes = mk();
    const r2 = await runBinary(["preflight", "--fix"], { env: yes.env, cwd: yes.home, stdin: "y\n" });
    expect(r2.code).toBe(0);
    expect(line(r2.stdout, "skills")).toEqual([
      "FIX  skills         skills add stablyai/orca -g --skill orca-cli --skill orchestration",
      "FIX  skills         skills update orchestration -g",
      "PASS skills         orca-cli and orchestration installed by --fix",
    ]);
    expect(await Bun.file(`${yes.env.FAKE_SKILLS_STATE}.log`).text()).toBe("add add stablyai/orca -g --skill orca-cli --skill orchestration\nupdate update orchestration -g\n");
    const auto = mk();
    const r3 = await runBinary(["preflight", "--fix", "--yes"], { env: auto.env, cwd: auto.home });
    expect(r3.code).toBe(0);
    expect(r3.stderr).toBe("");
    const plain = mk();
    const r4 = await runBinary(["preflight"], { env: plain.env, cwd: plain.home });
    expect(line(r4.stdout, "skills")[0]).toStartWith("FAIL skills ");
    expect(await Bun.file(`${plain.env.FAKE_SKILLS_STATE}.log`).exists()).toBe(false);
  });

  test("the shim scripts/onboarding-preflight.sh runs mogui preflight", async () => {
    const h = host();
    const p = Bun.spawnSync([join(ROOT, "scripts", "onboarding-preflight.sh")], { env: { ...h.env, MOGUI_BIN: binaryPath() }, cwd: h.home, stdout: "pipe", stderr: "pipe" });
    expect(p.exitCode).toBe(0);
    expect(p.stdout.toString()).toEndWith("  READY: all required checks passed\n");
  });
});
