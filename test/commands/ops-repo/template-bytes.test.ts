// template check | apply never misread bytes and never leave {{...}} tokens behind silently (issue 13, section 3):
// real invalid UTF-8 on disk, real written trees compared byte for byte.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runMain } from "../../helpers/ctx.ts";
import { put, writeTree } from "../../helpers/files.ts";
import { tempDir } from "../../helpers/paths.ts";

const BAD = Buffer.from([0x76, 0x31, 0xff, 0xfe, 0x0a]); // "v1" then two bytes that are never UTF-8

/** A disk template at version v1 with two installed files that use placeholders. */
function template(extra: Record<string, string> = {}): string {
  const files = ["MANIFEST.json", "README.md", "docs/a.md"];
  return writeTree(tempDir("tpl-"), {
    "TEMPLATE-VERSION": "v1\n",
    "CHANGELOG.md": "# Changelog\n\n## v1\n- first\n",
    "MANIFEST.json": `${JSON.stringify({ template_version: "v1", files }, null, 2)}\n`,
    "README.md": "# {{WORKSPACE_NAME}} ops at {{OPS_REPO}}, template {{TEMPLATE_VERSION}}\n",
    "docs/a.md": "model {{MODEL_ID}}; prose about {{...}} is not a token\n",
    ...extra,
  });
}

/** Every file under dir with its bytes (hex) and mode: two equal snapshots mean nothing was written. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      const st = statSync(p);
      if (st.isDirectory()) walk(p, `${rel}${n}/`);
      else out[`${rel}${n}`] = `${(st.mode & 0o777).toString(8)} ${readFileSync(p).toString("hex")}`;
    }
  };
  walk(dir, "");
  return out;
}

const apply = (ops: string, tpl: string, ...rest: string[]) => runMain(["template", "apply", "--ops", ops, "--template", tpl, ...rest]);
const check = (ops: string, tpl: string, ...rest: string[]) => runMain(["template", "check", "--ops", ops, "--template", tpl, ...rest]);

describe("invalid UTF-8 in the template is an unreadable template (exit 2)", () => {
  test("TEMPLATE-VERSION: check and apply (dry run and --write) exit 2, nothing written", async () => {
    const good = template();
    const ops = tempDir("ops-");
    expect((await apply(ops, good, "--write", "--yes", "--placeholder", "WORKSPACE_NAME=a", "--placeholder", "MODEL_ID=m")).code).toBe(0);
    const before = snapshot(ops);
    const tpl = template();
    writeFileSync(join(tpl, "TEMPLATE-VERSION"), BAD);
    const c = await check(ops, tpl);
    expect(c.code).toBe(2);
    expect(c.stdout).toContain("template VERSION unreadable: template TEMPLATE-VERSION is not valid UTF-8");
    expect(await apply(ops, tpl)).toMatchObject({ code: 2, stdout: "", stderr: "template apply: template TEMPLATE-VERSION is not valid UTF-8\n" });
    expect((await apply(ops, tpl, "--write", "--yes", "--allow-unfilled")).code).toBe(2);
    expect(snapshot(ops)).toEqual(before);
  });

  test("CHANGELOG.md: check exits 2 even when the versions agree (no adoption notes needed)", async () => {
    const tpl = template();
    const ops = tempDir("ops-");
    expect((await apply(ops, tpl, "--write", "--yes", "--placeholder", "WORKSPACE_NAME=a", "--placeholder", "MODEL_ID=m")).code).toBe(0);
    expect((await check(ops, tpl)).code).toBe(0);
    writeFileSync(join(tpl, "CHANGELOG.md"), Buffer.concat([Buffer.from("## v1\n- "), BAD]));
    const r = await check(ops, tpl, "--json");
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).questions_unanswered).toEqual(["template CHANGELOG unreadable: template CHANGELOG.md is not valid UTF-8"]);
  });
});

describe("unfilled placeholders", () => {
  test("--write refuses (exit 1, nothing written) and lists each unfilled token per file; OPS_REPO and TEMPLATE_VERSION are filled", async () => {
    const tpl = template();
    const ops = tempDir("ops-");
    const r = await apply(ops, tpl, "--write", "--yes");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toEndWith("template apply: 2 placeholder(s) would stay unfilled; nothing written (pass --placeholder NAME=VALUE, or --allow-unfilled):\n" + "  README.md: {{WORKSPACE_NAME}}\n  docs/a.md: {{MODEL_ID}}\n");
    expect(readdirSync(ops)).toEqual([]);
    // The dry run says the same on stderr and keeps its exit code.
    const dry = await apply(ops, tpl);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain("  README.md: {{WORKSPACE_NAME}}\n");
  });

  test("every value given: written, no token left; OPS_REPO defaults to the --ops path", async () => {
    const tpl = template();
    const ops = tempDir("ops-");
    const r = await apply(ops, tpl, "--write", "--yes", "--placeholder", "WORKSPACE_NAME=acme", "--placeholder", "MODEL_ID=m1");
    expect(r).toMatchObject({ code: 0 });
    expect(r.stderr).not.toContain("unfilled");
    expect(readFileSync(join(ops, "README.md"), "utf8")).toBe(`# acme ops at ${ops}, template v1\n`);
    expect(readFileSync(join(ops, "docs/a.md"), "utf8")).toBe("model m1; prose about {{...}} is not a token\n");
    expect((await check(ops, tpl)).code).toBe(0);
  });

  test("--allow-unfilled writes and still lists them; template check then reports them as drift (exit 1)", async () => {
    const tpl = template();
    const ops = tempDir("ops-");
    const r = await apply(ops, tpl, "--write", "--yes", "--allow-unfilled", "--placeholder", "WORKSPACE_NAME=acme");
    expect(r.code).toBe(0);
    expect(r.stderr).toEndWith("template apply: warning: 1 placeholder(s) left unfilled (--allow-unfilled):\n  docs/a.md: {{MODEL_ID}}\n");
    expect(readFileSync(join(ops, "docs/a.md"), "utf8")).toContain("{{MODEL_ID}}");
    const c = await check(ops, tpl);
    expect(c.code).toBe(1);
    expect(c.stdout).toContain("unfilled_placeholders: 1\n  - docs/a.md: {{MODEL_ID}}\n");
    expect(JSON.parse((await check(ops, tpl, "--json")).stdout).unfilled_placeholders).toEqual(["docs/a.md: {{MODEL_ID}}"]);
    // Also without a template (the install manifest only), and in any text file of the ops repo.
    put(ops, "contracts/x.md", "owner {{WORKSPACE_ROOT}} and {{NOT_A_PLACEHOLDER}}\n");
    const own = await runMain(["template", "check", "--ops", ops, "--no-template", "--json"]);
    expect(own.code).toBe(1);
    expect(JSON.parse(own.stdout).unfilled_placeholders).toEqual(["contracts/x.md: {{WORKSPACE_ROOT}}", "docs/a.md: {{MODEL_ID}}"]);
  });

  test("the embedded template: OPS_REPO and TEMPLATE_VERSION alone leave the other six unfilled", async () => {
    const ops = tempDir("ops-");
    const r = await runMain(["template", "apply", "--ops", ops, "--write", "--yes"]);
    expect(r.code).toBe(1);
    const names = new Set([...r.stderr.matchAll(/: \{\{([A-Z_]+)\}\}$/gm)].map((m) => m[1]));
    expect([...names].sort()).toEqual(["MODEL_ID", "MONITOR_NS", "REPO_LIST", "RUNTIME_ROOT", "WORKSPACE_NAME", "WORKSPACE_ROOT"]);
    expect(readdirSync(ops)).toEqual([]);
  });
});
