/**
 * product-path-guard against real shells (issue 13, DECISIONS D32). Every case is judged by the guard (in-process,
 * the same decide() the binary runs), then EXECUTED with bash in its own sandbox: a copy of a real product git
 * repository, an ops repository, a scratch directory, an isolated HOME, the case's working directory. The product
 * tree (every file's bytes, mode and symlink target, .git index and refs included) must be byte-identical after
 * every command the guard allowed. Blocked attacks are run too, to prove each one really writes the product (a
 * table of harmless "attacks" would prove nothing). Figures printed at the end: bypasses outside the documented
 * limits (goal 0) and benign read-only commands blocked (goal 0).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { cpSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, readdirSync, readFileSync, lutimesSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decide } from "../../../src/hooks/session/product-path-guard.ts";
import { settle, treeDiff } from "../../helpers/attack-product.ts";
import { GIT_ENV, sh } from "../../helpers/git.ts";
import { tempDir } from "../../helpers/paths.ts";
import { CASES, type GuardCase } from "./guard-table.ts";

const CONCURRENCY = 4;
const PAST = new Date("2020-01-01T00:00:00Z");
const TIMEOUT_MS = 10_000;
let golden: { product: string; ops: string };
let goldenState: Map<string, string>;
const notes: string[] = [];

/** Every entry under dir: path -> type, mode, bytes (sha1) or link target. .git included (index, refs, objects). */
function treeState(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string, rel: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      const st = lstatSync(p);
      const r = `${rel}${n}`;
      if (st.isSymbolicLink()) out.set(r, `L ${readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.set(r, `D ${(st.mode & 0o7777).toString(8)}`);
        walk(p, `${r}/`);
      } else out.set(r, `F ${(st.mode & 0o7777).toString(8)} ${createHash("sha1").update(readFileSync(p)).digest("hex")}`);
    }
  };
  walk(dir, "");
  return out;
}

/**
 * Sandboxes live on tmpfs when the host has one: a case copies two small repos and runs a shell, and on a busy
 * disk the copies dominate (about 60 ms against 3 ms each). Removed in afterAll.
 */
let base: string;
function sandboxBase(): string {
  try {
    if (statSync("/dev/shm").isDirectory()) return mkdtempSync("/dev/shm/mogui-guard-");
  } catch {
    /* no tmpfs: the test temp root */
  }
  return tempDir("guard-");
}

function makeGolden(): { product: string; ops: string } {
  const root = mkdtempSync(join(base, "golden-"));
  const product = join(root, "product");
  const ops = join(root, "ops");
  for (const d of [join(product, "src"), ops]) mkdirSync(d, { recursive: true });
  writeFileSync(join(product, "README.md"), "hello product\n");
  writeFileSync(join(product, "src", "a.ts"), "export const a = 1;\n");
  writeFileSync(join(product, "package.json"), '{"name":"product","version":"1.0.0"}\n');
  writeFileSync(join(product, "build.sh"), "#!/bin/sh\necho build\n", { mode: 0o755 });
  symlinkSync("README.md", join(product, "readme-link"));
  writeFileSync(join(ops, "README.md"), "ops notes\n");
  for (const repo of [product, ops]) {
    settle(repo);
    sh(repo, "init", "-q", "--template=", "-b", "main");
    sh(repo, "config", "core.checkStat", "minimal");
    sh(repo, "config", "core.trustctime", "false");
    sh(repo, "add", ".");
    sh(repo, "commit", "-q", "-m", "init");
  }
  sh(product, "remote", "add", "origin", "/nonexistent/origin.git");
  // One pack instead of loose objects: fewer files to copy and hash per case.
  for (const repo of [product, ops]) sh(repo, "repack", "-q", "-a", "-d");
  return { product, ops };
}

interface Sandbox {
  root: string;
  P: string;
  O: string;
  T: string;
  L: string;
  H: string;
}

async function run(argv: string[], cwd: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const p = Bun.spawn(argv, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => p.kill(9), TIMEOUT_MS);
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  const code = await p.exited;
  clearTimeout(timer);
  return { code, out: out + err };
}

async function sandbox(): Promise<Sandbox> {
  const root = mkdtempSync(join(base, "case-"));
  const sb = { root, P: join(root, "product"), O: join(root, "ops"), T: join(root, "tmp"), L: join(root, "link-to-product"), H: join(root, "home") };
  // In-process copy (no process per case); mtimes kept so the copied index stays clean for `git status`.
  for (const [from, to] of [
    [golden.product, sb.P],
    [golden.ops, sb.O],
  ] as const)
    cpSync(from, to, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
  // A copied symlink is new (its own mtime is now): date it like the original, or `git status` refreshes the index.
  lutimesSync(join(sb.P, "readme-link"), PAST, PAST);
  for (const d of [sb.T, sb.H]) mkdirSync(d);
  symlinkSync(sb.P, sb.L);
  symlinkSync(join(sb.P, "not-yet.txt"), join(root, "dangling"));
  return sb;
}

const fill = (text: string, sb: Sandbox) =>
  text
    .replaceAll("<B64P>", btoa(`touch ${sb.P}/f`))
    .replaceAll("<P>", sb.P)
    .replaceAll("<O>", sb.O)
    .replaceAll("<T>", sb.T)
    .replaceAll("<L>", sb.L)
    .replaceAll("<H>", sb.H)
    .replaceAll("<R>", sb.root);

/** Every absolute path a case names stays inside its sandbox (or is a harmless system file): the table runs as root. */
const SYSTEM = ["/dev/null", "/dev/zero", "/etc/hostname", "/bin/sh", "/usr/bin", "/nonexistent"];
function confined(command: string, sb: Sandbox): boolean {
  for (const m of command.matchAll(/(?:^|[\s'"=>(:{,;|&])(\/[^\s'"`;|&)}<>,]*)/g)) {
    const p = m[1]!;
    const at = m.index ?? 0;
    // `"<P>"/f`: a closing quote followed by the rest of the same word.
    if (/['"]/.test(command[at] ?? "") && at > 0 && !/[\s=(]/.test(command[at - 1]!)) continue;
    if (p === "/" || p.startsWith(sb.root) || SYSTEM.some((s) => p === s || p.startsWith(`${s}/`))) continue;
    return false;
  }
  return true;
}

interface Result {
  c: GuardCase;
  block: boolean;
  reason: string;
  executed: boolean;
  changed: boolean;
  /** The product paths the command changed. */
  diff: string[];
  out: string;
}

async function runCase(c: GuardCase): Promise<Result> {
  const sb = await sandbox();
  const command = fill(c.cmd, sb);
  if (!confined(command, sb)) throw new Error(`case '${c.name}' names a path outside its sandbox: ${command}`);
  const cwd = { ops: sb.O, product: sb.P, productSrc: join(sb.P, "src"), root: sb.root, tmp: sb.T }[c.cwd ?? "ops"];
  const guardEnv = { HOME: sb.H, MOGUI_HOME: join(sb.root, "mogui-home"), MOGUI_PRODUCT_REPO: sb.P, PATH: "/usr/local/bin:/usr/bin:/bin" };
  const d = decide({ env: guardEnv, cwd }, { tool_name: "Bash", tool_input: { command }, cwd }, cwd);
  const env: Record<string, string> = { ...GIT_ENV, HOME: sb.H, PATH: "/usr/local/bin:/usr/bin:/bin", TMPDIR: sb.T, LC_ALL: "C", GIT_PAGER: "cat", PAGER: "cat" };
  if (c.setup) {
    const s = await run(["bash", "-c", fill(c.setup, sb)], sb.root, env);
    if (s.code !== 0) throw new Error(`setup of '${c.name}' failed: ${s.out}`);
  }
  const execute = c.exec !== false && (!d.block || c.expect === "block");
  if (!execute) return { c, block: d.block, reason: d.reason, executed: false, changed: false, diff: [], out: "" };
  const r = await run(["bash", "-c", command], cwd, env);
  const diff = treeDiff(goldenState, treeState(sb.P));
  return { c, block: d.block, reason: d.reason, executed: true, changed: diff.length > 0, diff, out: r.out.slice(0, 300) };
}

async function pool<T, R>(items: T[], n: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!);
      }
    }),
  );
  return out;
}

let results: Result[] = [];

beforeAll(async () => {
  base = sandboxBase();
  golden = makeGolden();
  const sb = await sandbox();
  goldenState = treeState(sb.P);
  const runnable = CASES.filter((c) => {
    if (c.needs && !Bun.which(c.needs, { PATH: "/usr/local/bin:/usr/bin:/bin" })) {
      notes.push(`skipped '${c.name}': ${c.needs} is not installed`);
      return false;
    }
    return true;
  });
  results = await pool(runnable, CONCURRENCY, runCase);
}, 240_000);

afterAll(() => {
  if (!process.env.MOGUI_KEEP_TEST_TMP) rmSync(base, { recursive: true, force: true });
  const allowed = results.filter((r) => !r.block);
  const bypasses = allowed.filter((r) => r.changed && !r.c.limit);
  const benign = results.filter((r) => r.c.benign);
  const proven = results.filter((r) => r.block && r.executed && r.changed);
  console.log(
    [
      `product-path-guard sandbox table: ${CASES.length} cases (${results.length} run), ${results.filter((r) => r.block).length} blocked, ${allowed.length} allowed and executed`,
      `  bypasses outside the documented limits: ${bypasses.length} (goal 0)`,
      `  benign read-only commands blocked: ${benign.filter((r) => r.block).length} of ${benign.length} (goal 0)`,
      `  blocked attacks proven to write the product when run: ${proven.length} of ${results.filter((r) => r.block && r.executed).length} executed`,
      `  documented limits (allowed, and they do write): ${results.filter((r) => r.c.limit && r.changed).length}`,
      ...notes.map((n) => `  note: ${n}`),
    ].join("\n"),
  );
});

describe("product-path-guard sandbox table (D32)", () => {
  test("the table is big enough: >= 150 cases, >= 30 benign read-only commands", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(150);
    expect(CASES.filter((c) => c.benign).length).toBeGreaterThanOrEqual(30);
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
  });

  test("every verdict is the expected one", () => {
    const wrong = results.filter((r) => r.block !== (r.c.expect === "block")).map((r) => `${r.c.expect === "block" ? "ALLOWED" : "BLOCKED"}: ${r.c.name} (${r.reason})`);
    expect(wrong).toEqual([]);
  });

  test("no allowed command changed the product tree (0 bypasses outside the documented limits)", () => {
    const bypasses = results.filter((r) => !r.block && r.changed && !r.c.limit).map((r) => `${r.c.name}: changed ${r.diff.join(", ")}; output: ${r.out}`);
    expect(bypasses).toEqual([]);
  });

  test("0 benign read-only commands blocked", () => {
    expect(results.filter((r) => r.c.benign && r.block).map((r) => `${r.c.name}: ${r.reason}`)).toEqual([]);
  });

  test("each blocked attack really writes the product when run (unless marked as not provable here)", () => {
    const harmless = results.filter((r) => r.block && r.executed && r.c.proves !== false && !r.changed).map((r) => `${r.c.name}: ${r.out}`);
    expect(harmless).toEqual([]);
  });

  test("the documented limits are real: allowed, and they do write the product", () => {
    const limits = results.filter((r) => r.c.limit);
    expect(limits.length).toBeGreaterThanOrEqual(3);
    expect(limits.filter((r) => r.block || !r.changed).map((r) => r.c.name)).toEqual([]);
  });
});
