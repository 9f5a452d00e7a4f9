// product-path-guard and the hook wiring through the compiled binary, with a real git repo as the product.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eEnv, runBinary } from "../../helpers/binary.ts";
import { makeRepo } from "../../helpers/git.ts";
import { ROOT, tempDir } from "../../helpers/paths.ts";

let root: string;
let product: string;
let ops: string;
let home: string;
let env: Record<string, string>;

beforeAll(() => {
  root = tempDir("hooks-e2e-guard-");
  product = makeRepo(join(root, "p")).repo;
  ops = join(root, "ops");
  home = join(root, "home");
  mkdirSync(join(home, "config"), { recursive: true });
  mkdirSync(ops, { recursive: true });
  writeFileSync(join(home, "config", "instance-runtime.json"), JSON.stringify({ master_host_runtime: "claude", product_repo: product }));
  symlinkSync(product, join(root, "alias"));
  env = e2eEnv({ MOGUI_HOME: home, HOME: root, MOGUI_RUNTIME_HINT: "claude" });
});

const guard = (command: string, cwd = ops) => runBinary(["hook", "product-path-guard"], { env, cwd: ops, stdin: JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", cwd, tool_name: "Bash", tool_input: { command } }) });

describe("product-path-guard through dist/mogui (config from $MOGUI_HOME/config/instance-runtime.json)", () => {
  test("blocked commands exit 2 with the BLOCKED line; allowed ones exit 0 silently", async () => {
    const blocked = [`echo x > ${product}/README.md`, `cd ${product} && git commit -am x`, `git -C ${product} remote set-url origin /tmp/x`, `echo x > ${join(root, "alias")}/f`, `bash -c 'rm -rf ${product}/src'`, "echo hi > notes.txt"];
    for (const [i, cmd] of blocked.entries()) {
      const r = await guard(cmd, i === blocked.length - 1 ? product : ops);
      expect({ cmd, code: r.code, stdout: r.stdout }).toEqual({ cmd, code: 2, stdout: "" });
      expect(r.stderr).toStartWith("[product-path-guard] BLOCKED: ");
    }
    for (const cmd of [`git -C ${product} log --oneline -3`, `ls ${product}`, `echo '>' ${product}/x`, `cat ${product}/README.md > ${ops}/copy.md`]) {
      expect({ cmd, ...(await guard(cmd)) }).toEqual({ cmd, code: 0, stdout: "", stderr: "" });
    }
    const events = readFileSync(join(home, "event-log.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.outcome)).toEqual([...Array(6).fill("block"), ...Array(4).fill("allow")]);
    expect(events.every((e) => e.runtime_hint === "claude" && e.tool_kind === "bash")).toBe(true);
    const m = await runBinary(["measure-product-path-guard"], { env });
    expect(m.stdout).toBe("bash_command_observations=10\nguard_rejections=6\nrejection_rate=60.0% (6/10)\n");
  });

  test("the wiring `hook install` writes runs as written: the settings command string blocks", async () => {
    const settings = join(root, "settings.json");
    const inst = await runBinary(["hook", "install", "--host", "claude", "--settings", settings, "--json"], { env });
    expect(inst.code).toBe(0);
    const s = JSON.parse(readFileSync(settings, "utf8"));
    const cmd: string = s.hooks.PreToolUse.find((g: { matcher: string }) => g.matcher.includes("Edit")).hooks[0].command;
    expect(cmd).toEndWith(" hook product-path-guard");
    // The host runs the command line through its shell with the JSON on stdin.
    const p = Bun.spawn(["sh", "-c", cmd], { env, stdin: new TextEncoder().encode(JSON.stringify({ tool_name: "Write", tool_input: { file_path: `${product}/x.ts` } })), stderr: "pipe" });
    expect(await p.exited).toBe(2);
    expect(await new Response(p.stderr).text()).toContain("[product-path-guard] BLOCKED: Write targets");
  });

  test("scripts/hooks/product-path-guard.sh shim", async () => {
    const p = Bun.spawn([join(ROOT, "scripts", "hooks", "product-path-guard.sh")], { env, stdin: new TextEncoder().encode(JSON.stringify({ tool_name: "Bash", tool_input: { command: `touch ${product}/y` } })), stderr: "pipe" });
    expect(await p.exited).toBe(2);
  });
});

describe("fail-closed input through dist/mogui (D32)", () => {
  const raw = (stdin: string | undefined, args: string[] = []) => runBinary(["hook", "product-path-guard", ...args], { env, cwd: ops, ...(stdin === undefined ? {} : { stdin }) });

  test("empty stdin, whitespace, invalid JSON, a JSON array, an unreadable --input-file: exit 2 BLOCKED", async () => {
    for (const stdin of ["", "  \n", "{not json", "[1,2]"]) {
      const r = await raw(stdin);
      expect({ stdin, code: r.code, stdout: r.stdout }).toEqual({ stdin, code: 2, stdout: "" });
      expect(r.stderr).toStartWith("[product-path-guard] BLOCKED: unreadable hook input: ");
    }
    const r = await raw(undefined, ["--input-file", join(root, "no-such.json")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("cannot read");
  });

  test("a lowercase tool name and an unknown tool with a product path block; a Read passes", async () => {
    const call = (tool_name: string, tool_input: Record<string, unknown>) => raw(JSON.stringify({ tool_name, tool_input, cwd: ops }));
    const w = await call("write", { file_path: `${product}/x.ts`, content: "x" });
    expect(w.code).toBe(2);
    expect(w.stderr).toContain(`write targets ${product}/x.ts inside the product repo`);
    expect((await call("mcp__fs__edit_file", { edits: [{ file_path: `${product}/README.md` }] })).code).toBe(2);
    expect(await call("Read", { file_path: `${product}/README.md` })).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(readFileSync(join(product, "README.md"), "utf8")).toBe("hello\n");
  });
});
