// product-path-guard decisions (reference §28.5): the ~30 cases of the original self-test plus quoting tricks.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decide, guardProductRoot, loadAllowlist } from "../../../src/hooks/session/product-path-guard.ts";
import { tempDir } from "../../helpers/paths.ts";

let root: string;
let P: string; // the product repo
let OPS: string; // the ops repo (the master's cwd)
let LINK: string; // a symlink to the product repo

beforeAll(() => {
  root = tempDir("hooks-guard-");
  P = join(root, "product");
  OPS = join(root, "ops");
  mkdirSync(join(P, "src"), { recursive: true });
  mkdirSync(join(OPS, "notes"), { recursive: true });
  writeFileSync(join(P, "README.md"), "product\n");
  LINK = join(root, "link-to-product");
  symlinkSync(P, LINK);
  symlinkSync(join(P, "not-yet-there.txt"), join(root, "dangling"));
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { HOME: root, MOGUI_HOME: join(root, "home"), MOGUI_PRODUCT_REPO: P, PATH: "/usr/bin:/bin", ...extra };
}

function bash(command: string, opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const cwd = opts.cwd ?? OPS;
  return decide({ env: opts.env ?? env(), cwd }, { tool_name: "Bash", tool_input: { command } }, cwd);
}

function file(tool: string, path: string, opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const cwd = opts.cwd ?? OPS;
  const key = tool === "NotebookEdit" ? "notebook_path" : "file_path";
  return decide({ env: opts.env ?? env(), cwd }, { tool_name: tool, tool_input: { [key]: path } }, cwd);
}

describe("product-path-guard: blocked", () => {
  const cases: [string, () => string][] = [
    ["redirection >", () => `echo x > ${P}/f`],
    ["redirection >>", () => `echo x >> ${P}/README.md`],
    ["redirection >&", () => `echo x >& ${P}/f`],
    ["redirection &>", () => `make &> ${P}/build.log`],
    ["fd redirection 2>", () => `ls 2> ${P}/err`],
    ["quoted target with a space", () => `echo x > "${P}/with space"`],
    ["ANSI-C quoted target", () => `echo x > $'${P}/f'`],
    ["cd && write", () => `cd ${P} && echo x > f`],
    ["cd into the product, then a write there", () => `cd ${P} && touch f`],
    ["cd via a relative path, then a write", () => `cd ../product && rm README.md`],
    ["cp into the product", () => `cp /etc/hostname ${P}/src/`],
    ["mv out of the product", () => `mv ${P}/README.md /tmp/x`],
    ["tee", () => `echo x | tee ${P}/f`],
    ["touch", () => `touch ${P}/new`],
    ["rm after ;", () => `true; rm -rf ${P}/src`],
    ["after ||", () => `false || touch ${P}/x`],
    ["bash -c", () => `bash -c "echo hi > ${P}/f"`],
    ["sh -lc", () => `sh -lc 'touch ${P}/x'`],
    ["python -c", () => `python3 -c "open('${P}/f','w').write('x')"`],
    ["node -e", () => `node -e "require('fs').writeFileSync('${P}/f','x')"`],
    ["eval", () => `eval "touch ${P}/x"`],
    ["program piped into sh", () => `cat ${P}/script.sh | sh`],
    ["heredoc program for bash", () => `bash <<'EOF'\nrm -rf ${P}/src\nEOF`],
    ["heredoc piped into sh", () => `cat <<EOF | sh\ntouch ${P}/x\nEOF`],
    ["$(...) substitution", () => `echo $(touch ${P}/y)`],
    ["$(...) inside double quotes", () => `echo "$(rm ${P}/README.md)"`],
    ["backticks", () => `echo \`touch ${P}/y\``],
    ["find -delete", () => `find ${P} -name '*.tmp' -delete`],
    ["find -exec", () => `find ${P} -name x -exec rm {} \\;`],
    ["xargs", () => `ls ${P} | xargs rm`],
    ["sed -i", () => `sed -i s/a/b/ ${P}/README.md`],
    ["sed --in-place", () => `true && sed --in-place=.bak s/a/b/ ${P}/README.md`],
    ["perl -pi", () => `perl -pi -e s/a/b/ ${P}/README.md`],
    ["git add", () => `git -C ${P} add .`],
    ["git commit", () => `cd /tmp && git -C ${P} commit -m x`],
    ["git remote set-url", () => `git -C ${P} remote set-url origin https://example.invalid/x.git`],
    ["git remote add", () => `git -C ${P} remote add fork https://example.invalid/x.git`],
    ["git diff --output", () => `git -C ${P} diff --output=/tmp/d.patch`],
    ["git --work-tree into the product", () => `git --git-dir=/tmp/other.git --work-tree=${P} checkout -- .`],
    ["git --git-dir without --work-tree", () => `git --git-dir=${P}/.git log`],
    ["symlinked product path", () => `echo x > ${LINK}/f`],
    ["a dangling symlink into the product", () => `echo x > ${root}/dangling`],
    ["heredoc into the product", () => `cat > ${P}/f <<'EOF'\nhello\nEOF`],
    ["wrappers: sudo, env, timeout, assignments", () => `FOO=1 sudo env -i timeout 5 rm ${P}/README.md`],
    ["a loop variable over product files", () => `for f in ${P}/*; do rm "$f"; done`],
    ["dd of=", () => `dd if=/dev/zero of=${P}/blob bs=1 count=1`],
    ["subshell", () => `(cd /tmp; touch ${P}/x)`],
    ["line continuation", () => `touch \\\n ${P}/x`],
  ];
  for (const [name, cmd] of cases) {
    test(name, () => {
      const d = bash(cmd());
      expect({ name, block: d.block, scope: d.targetScope }).toEqual({ name, block: true, scope: "product" });
      expect(d.reason.length).toBeGreaterThan(5);
    });
  }

  test("relative working dir: a relative write when the session's cwd is inside the product", () => {
    expect(bash("echo x > notes.txt", { cwd: P }).block).toBe(true);
    expect(bash("npm install", { cwd: join(P, "src") }).commandClass).toBe("write_command");
  });

  test("file tools: Write, Edit (relative), NotebookEdit, through a symlink, a dangling link", () => {
    expect(file("Write", `${P}/new.ts`)).toMatchObject({ block: true, toolKind: "file", commandClass: "file_tool" });
    expect(file("Edit", "src/a.ts", { cwd: P }).block).toBe(true);
    expect(file("NotebookEdit", `${P}/n.ipynb`).block).toBe(true);
    expect(file("MultiEdit", `${LINK}/src/a.ts`).block).toBe(true);
    expect(file("Write", `${root}/dangling`).block).toBe(true);
    expect(decide({ env: env(), cwd: OPS }, { tool_name: "Write", tool_input: {} }, OPS).block).toBe(true);
  });

  test("class names say which rule fired", () => {
    expect(bash(`echo x > ${P}/f`).commandClass).toBe("redirection");
    expect(bash(`bash -c "rm ${P}/x"`).commandClass).toBe("opaque_interpreter");
    expect(bash(`sed -i s/a/b/ ${P}/x`).commandClass).toBe("write_capable_arg");
    expect(bash(`git -C ${P} push`).commandClass).toBe("git_mutation");
    expect(bash(`git --git-dir=${P}/.git status`).commandClass).toBe("git_dir_without_work_tree");
    expect(bash(`echo $(( $(touch ${P}/x) ))`).commandClass).toBe("unparseable");
    expect(bash(`touch ${P}/x`).commandClass).toBe("write_command");
  });
});

describe("product-path-guard: allowed", () => {
  const cases: [string, () => string, string?][] = [
    ["ls in the product", () => `ls -la ${P}/src`],
    ["cat | grep", () => `cat ${P}/README.md | grep product | head -5`],
    ["grep -r", () => `grep -rn TODO ${P}`],
    ["find without actions", () => `find ${P} -name '*.ts' -newer ${P}/README.md`],
    ["git status / log", () => `git -C ${P} status --short && git -C ${P} log --oneline -5`],
    ["git remote show add (a remote named add)", () => `git -C ${P} remote show add`],
    ["git remote -v", () => `git -C ${P} remote -v`],
    ["git --work-tree + --git-dir read", () => `git --git-dir=${P}/.git --work-tree=${P} status`],
    ["writing to ops", () => `echo x > ${OPS}/notes/today.md && git -C ${OPS} commit -am notes`],
    ["quoted '>' is not a redirection", () => `echo '>' ${P}/f`],
    ["a product path inside a quoted string", () => `echo "a > ${P}/f"`],
    ["commit message naming the product", () => `git commit -m "fix ${P}/src/a.ts"`],
    ["heredoc body is data", () => `cat > /tmp/x <<EOF\nrm -rf ${P}\nEOF`],
    ["commit message heredoc in $(...) with an apostrophe", () => `git commit -m "$(cat <<'EOF'\nDon't touch ${P} (see notes\nEOF\n)"`],
    ["fd duplication in the product cwd", () => "echo x >&2 2>/dev/null", P],
    ["read-only commands in the product cwd", () => "pwd; ls; git status; head -3 README.md", P],
    ["copying out of the product with cat (cp names the product: blocked, D32)", () => `cat ${P}/README.md > ${OPS}/notes/README.md`],
    ["xargs with a read-only command", () => `ls ${P}/src | xargs cat`],
    ["cd into the product and read (issue 23)", () => `cd ${P} && git status && ls`],
    ["cd via a relative path and read", () => `cd ../product && ls`],
    ["a comment mentioning the product", () => `ls # rm -rf ${P}`],
    ["a prefix that only looks like the product", () => `touch ${P}-old/x ${P}2`],
  ];
  for (const [name, cmd, cwd] of cases) {
    test(name, () => {
      const d = bash(cmd(), cwd ? { cwd } : {});
      expect({ name, block: d.block, reason: d.reason }).toEqual({ name, block: false, reason: expect.any(String) });
    });
  }

  test("file tools outside the product; MOGUI_INLINE_EDIT_OVERRIDE=1; other tools", () => {
    expect(file("Write", `${OPS}/notes/a.md`)).toMatchObject({ block: false, targetScope: "outside" });
    expect(file("Edit", `${P}/README.md`, { env: env({ MOGUI_INLINE_EDIT_OVERRIDE: "1" }) })).toMatchObject({ block: false, commandClass: "file_tool_override" });
    expect(decide({ env: env(), cwd: OPS }, { tool_name: "Read", tool_input: { file_path: `${P}/README.md` } }, OPS)).toMatchObject({ block: false, toolKind: "other" });
  });
});

describe("product-path-guard: fail-closed allowlist mode", () => {
  test("an empty allowlist blocks even ls; listed prefixes pass; write rules still apply", () => {
    const list = join(root, "allow.txt");
    writeFileSync(list, "# read-only commands\nls\ngit status\ncd\n");
    const strict = env({ MOGUI_PRODUCT_GUARD_FAIL_CLOSED: "1", MOGUI_PRODUCT_GUARD_ALLOWLIST: join(root, "absent.txt") });
    expect(bash(`ls ${P}`, { env: strict })).toMatchObject({ block: true, commandClass: "not_allowlisted" });
    const listed = env({ MOGUI_PRODUCT_GUARD_FAIL_CLOSED: "1", MOGUI_PRODUCT_GUARD_ALLOWLIST: list });
    expect(loadAllowlist({ env: listed, cwd: OPS })).toEqual([["ls"], ["git", "status"], ["cd"]]);
    expect(bash(`ls ${P}`, { env: listed }).block).toBe(false);
    expect(bash(`git -C ${P} status`, { env: listed }).block).toBe(false);
    expect(bash(`git -C ${P} log`, { env: listed }).block).toBe(true);
    expect(bash(`cat ${P}/README.md`, { env: listed }).block).toBe(true);
    expect(bash(`ls ${P} > ${P}/listing`, { env: listed }).block).toBe(true);
    expect(bash(`cd ${P} && ls`, { env: listed }).block).toBe(false);
    expect(bash(`cd ${P} && touch x`, { env: listed }).block).toBe(true);
  });
});

describe("product-path-guard: configuration (fail closed)", () => {
  test("missing, relative, absent directory and malformed config all block", () => {
    const noRepo = { HOME: root, MOGUI_HOME: join(root, "empty-home") };
    expect(guardProductRoot({ env: noRepo, cwd: OPS })).toEqual({ error: expect.stringContaining("product repo is unconfigured") });
    expect(bash("ls", { env: noRepo })).toMatchObject({ block: true, commandClass: "config_invalid" });
    expect(guardProductRoot({ env: env({ MOGUI_PRODUCT_REPO: "product" }), cwd: root })).toEqual({ error: "product_repo must be an absolute path" });
    expect(guardProductRoot({ env: env({ MOGUI_PRODUCT_REPO: join(root, "nope") }), cwd: OPS })).toEqual({ error: expect.stringContaining("does not exist") });
    const bad = join(root, "bad.json");
    writeFileSync(bad, "{not json");
    expect(guardProductRoot({ env: { HOME: root, MOGUI_INSTANCE_RUNTIME_CONFIG: bad }, cwd: OPS })).toEqual({ error: expect.stringContaining("not valid JSON") });
    const rel = join(root, "rel.json");
    writeFileSync(rel, JSON.stringify({ product_repo: "../product" }));
    expect(guardProductRoot({ env: { HOME: root, MOGUI_INSTANCE_RUNTIME_CONFIG: rel }, cwd: OPS })).toEqual({ error: "product_repo must be an absolute path" });
    const good = join(root, "good.json");
    writeFileSync(good, JSON.stringify({ product_repo: P }));
    expect(guardProductRoot({ env: { HOME: root, MOGUI_INSTANCE_RUNTIME_CONFIG: good }, cwd: OPS })).toEqual({ root: P });
  });

  test("an unparseable command blocks", () => {
    expect(bash(`echo 'unterminated ${P}`)).toMatchObject({ block: true, commandClass: "unparseable" });
    // Where this reader and bash could disagree, it blocks (issue 23), even when nothing names the product.
    expect(bash("echo 'unterminated")).toMatchObject({ block: true, commandClass: "unparseable" });
  });
});

// D32: the input side fails closed.
describe("product-path-guard: tool names and unknown tools (D32)", () => {
  const call = (tool_name: unknown, tool_input: unknown) => decide({ env: env(), cwd: OPS }, { tool_name, tool_input } as Record<string, unknown>, OPS);

  test("tool names match case-insensitively", () => {
    for (const t of ["write", "WRITE", "edit", "Multiedit", "notebookedit"]) expect({ t, ...call(t, { file_path: `${P}/x`, notebook_path: `${P}/n.ipynb` }) }).toMatchObject({ t, block: true, toolKind: "file" });
    expect(call("bash", { command: `touch ${P}/x` })).toMatchObject({ block: true, toolKind: "bash" });
    expect(call("BASH", { command: "ls" }).block).toBe(false);
  });

  test("an unknown tool carrying a path-like key is judged by it, at any depth", () => {
    expect(call("ApplyPatch", { path: `${P}/a.ts` })).toMatchObject({ block: true, commandClass: "file_tool" });
    expect(call("mcp__fs__write_file", { edits: [{ file_path: `${OPS}/ok.md` }, { file_path: `${P}/src/a.ts` }] }).block).toBe(true);
    expect(call("mcp__fs__move", { paths: [`${OPS}/a`, `${LINK}/b`] }).block).toBe(true);
    expect(call("Custom", { target_file: "README.md" })).toMatchObject({ block: false, targetScope: "outside" });
    expect(call("Custom", { uri: `file://${P}/x` }).block).toBe(true);
    expect(call("Custom", { query: "hello" })).toMatchObject({ block: false, toolKind: "other" });
    expect(call("Custom", {})).toMatchObject({ block: true, commandClass: "file_tool" });
  });

  test("known read-only tools pass with product paths; a missing tool name with nothing to judge blocks", () => {
    for (const t of ["Read", "read", "Grep", "Glob", "LS"]) expect(call(t, { file_path: `${P}/README.md`, path: P }).block).toBe(false);
    expect(decide({ env: env(), cwd: OPS }, {}, OPS)).toMatchObject({ block: true, commandClass: "unparseable" });
    expect(call(undefined, { file_path: `${P}/x` }).block).toBe(true);
    expect(call(42, { command: `rm ${P}/README.md` }).block).toBe(true);
  });
});

describe("product-path-guard: static expansions and the catch-all (D32)", () => {
  const cases: [string, () => string, boolean][] = [
    ["assignment", () => `D=${P}; echo x > $D/f`, true],
    ["$(echo)", () => `echo x > $(echo ${P})/f`, true],
    ["brace expansion", () => `touch {${P},/tmp/x}/f`, true],
    ["awk program", () => `awk 'BEGIN{print 1 > "${P}/f"}'`, true],
    ["git -c with a command key", () => `git -C ${P} -c core.pager=less log`, false],
    ["git -c alias", () => `git -C ${P} -c alias.x='!touch f' status`, true],
    ["GIT_PAGER=cat is fine", () => `GIT_PAGER=cat git -C ${P} log`, false],
    ["GIT_PAGER running something", () => `GIT_PAGER='rm -rf src' git -C ${P} log`, true],
    ["a function and a product read", () => `f() { :; }; cat ${P}/README.md`, true],
    ["sort -o", () => `sort -o ${P}/x ${OPS}/notes`, true],
    ["sort to stdout", () => `sort ${P}/README.md`, false],
  ];
  for (const [name, cmd, blocked] of cases) {
    test(name, () => expect({ name, block: bash(cmd()).block }).toEqual({ name, block: blocked }));
  }
});

describe("product-path-guard: random commands never throw (seeded; MOGUI_GUARD_SEED reproduces)", () => {
  test("2,000 commands built from shell fragments: a verdict every time, and a product redirect after them is blocked", () => {
    const seed = Number(process.env.MOGUI_GUARD_SEED ?? Date.now() % 1_000_000);
    console.log(`product-path-guard random commands: seed ${seed}`);
    let x = seed || 1;
    const rnd = (n: number) => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return x % n;
    };
    const bits = () => [
      P,
      OPS,
      LINK,
      "..",
      "~",
      "$D",
      "${D}",
      "$(echo x)",
      "`pwd`",
      "{a,b}",
      "{1..3}",
      "'",
      '"',
      "\\",
      ";",
      "&&",
      "|",
      "(",
      ")",
      "<<EOF\n",
      "\nEOF\n",
      "$(",
      "${",
      "=",
      "D=",
      "for",
      "in",
      "do",
      "done",
      "f()",
      "{",
      "}",
      "cat",
      "rm",
      "awk",
      "sed",
      "-i",
      "git",
      "-C",
      "-c",
      "x",
    ];
    const frags = bits();
    for (let i = 0; i < 2000; i++) {
      const words = Array.from({ length: 1 + rnd(12) }, () => frags[rnd(frags.length)]!);
      const cmd = words.join(rnd(3) ? " " : "");
      const d = bash(cmd);
      expect(typeof d.block).toBe("boolean");
      expect(d.reason.length).toBeGreaterThan(0);
      // A heredoc left open makes the rest of the text its body (data, as bash reads it), so those are skipped.
      if (!cmd.includes("<<")) expect({ cmd, block: bash(`${cmd}\necho x > ${P}/f`).block }).toEqual({ cmd, block: true });
    }
  });
});
