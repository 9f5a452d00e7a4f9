// product-path-guard where static reading cannot decide (issue 23 §3): it blocks when the command could reach the
// product, fails closed on paths the kernel cannot resolve, and keeps benign reads allowed.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decide } from "../../../src/hooks/session/product-path-guard.ts";
import { tempDir } from "../../helpers/paths.ts";

let root: string;
let PARENT: string;
let P: string;
let OPS: string;
let SRCLINK: string;

beforeAll(() => {
  root = tempDir("hooks-guard-closed-");
  PARENT = join(root, "work");
  P = join(PARENT, "product");
  OPS = join(root, "ops");
  mkdirSync(join(P, "src"), { recursive: true });
  mkdirSync(OPS, { recursive: true });
  writeFileSync(join(P, "README.md"), "product\n");
  writeFileSync(join(OPS, "plain"), "x");
  // A link made by an earlier call: <OPS>/s -> <P>/src, so <OPS>/s/.. is the product (the kernel reads .. physically).
  SRCLINK = join(OPS, "s");
  symlinkSync(join(P, "src"), SRCLINK);
  symlinkSync(join(root, "loop2"), join(root, "loop1"));
  symlinkSync(join(root, "loop1"), join(root, "loop2"));
});

const env = (extra: Record<string, string> = {}) => ({ HOME: join(root, "home"), MOGUI_HOME: join(root, "mh"), MOGUI_PRODUCT_REPO: P, PATH: "/usr/bin:/bin", ...extra });

function bash(command: string, cwd = OPS, extra: Record<string, string> = {}) {
  return decide({ env: env(extra), cwd }, { tool_name: "Bash", tool_input: { command } }, cwd);
}

const BLOCK: [string, () => string, string?][] = [
  ["`..` read physically through a symlink", () => `touch ${SRCLINK}/../pwned`],
  ["/proc/self/cwd is the shell's cwd", () => `cd ${P} && echo x > /proc/self/cwd/README.md`],
  ["glob over the parent matching the product", () => `rm -rf ${PARENT}/prod*/src`],
  ["glob in a redirection target", () => `echo x > ${PARENT}/?roduct/README.md`],
  ["glob: the fixed part is an ancestor", () => `touch ${root}/*/product/f`],
  ["mv of the parent", () => `mv ${PARENT} ${OPS}/moved`],
  ["rm -rf of an ancestor", () => `rm -rf ${root}`],
  ["chmod -R of the parent", () => `chmod -R a-w ${PARENT}`],
  ["relative ancestor from the parent", () => "rm -rf .", "parent"],
  ["find -delete from an ancestor", () => `find ${PARENT} -name '*.md' -delete`],
  ["cd - (OLDPWD unknown)", () => "cd - && rm README.md"],
  ["popd", () => "popd && rm README.md"],
  ["pushd with no argument", () => "pushd && rm README.md"],
  ["cd after HOME=", () => `HOME=${P}; cd && rm README.md`],
  ["cd ~ after HOME=", () => `HOME=${P}; cd ~ && rm README.md`],
  ["cd - after OLDPWD=", () => `OLDPWD=${P}; cd - && rm README.md`],
  ["CDPATH assignment", () => `CDPATH=${PARENT} cd product && rm README.md`],
  ["cd with a computed target", () => "cd $(cat where) && rm README.md"],
  ["cd in a subshell does not move the rest, but the old cwd stays possible", () => `(cd ${OPS}); rm README.md`, "product"],
  ["cd in a pipeline leaves the cwd as it was", () => `cd ${OPS} | true; rm README.md`, "product"],
  ["a failing cd leaves the cwd as it was", () => `cd /nonexistent; rm README.md`, "product"],
  ["cd on the left of ||", () => `cd ${OPS} || true; rm README.md`, "product"],
  ["cd in the background", () => `cd ${OPS} & rm README.md`, "product"],
  ["env -S", () => `env -S "rm -f ${P}/README.md"`],
  ["env -C glued", () => `env -C${P} rm -f README.md`],
  ["env -iC clustered", () => `env -iC ${P} rm -f README.md`],
  ["env --chdir=", () => `env --chdir=${P} rm -f README.md`],
  ["sudo -D", () => `sudo -D ${P} rm -f README.md`],
  ["time -o into the product", () => `/usr/bin/time -o ${P}/t true`],
  ["-o<path> glued", () => `sort -o${P}/README.md /etc/hostname`],
  ["clustered -t<path>", () => `cp -ft${P} /etc/hostname`],
  ["glued relative name from the parent", () => "cp -tproduct /etc/hostname", "parent"],
  ["xargs running a writer on run-time input", () => `find ${root} -name product | xargs -I{} touch {}/x`],
  ["ed reading commands from stdin", () => `printf 'w ${P}/x\\nq\\n' | ed -s /etc/hostname`],
  ["sqlite3 reading commands from stdin", () => `echo '.shell touch ${P}/x' | sqlite3`],
  ["a versioned interpreter on stdin", () => `echo "open('${P}/x','w')" | python3.11`],
  ["a versioned shell on stdin", () => `echo 'touch ${P}/x' | bash5`],
  ["an unknown program fed the product's text", () => `echo 'touch ${P}/x' | mysh`],
  ["git ls-remote --upload-pack", () => `git ls-remote --upload-pack='touch ${P}/x' ${OPS}`],
  ["git fetch --upload-pack (not touching the product by path)", () => "git fetch --upload-pack=evil origin"],
  ["git -c alias (anywhere)", () => "git -c alias.x='!touch f' x"],
  ["git -c core.sshCommand", () => "git -c core.sshCommand='sh evil' fetch"],
  ["git --exec-path", () => `git --exec-path=${OPS} status`],
  ["git branch --set-upstream-to=", () => `git -C ${P} branch --set-upstream-to=origin/main`],
  ["git branch -uorigin/main glued", () => `git -C ${P} branch -uorigin/main`],
  ["git config --list with --add", () => `git -C ${P} config --add x.y z`],
  ["git clean in a repo above the product", () => `git -C ${PARENT} clean -ffdx`],
  ["git -C with a computed path", () => "git -C $(cat where) commit -m x"],
  ["IFS changed, then a writer", () => "IFS=/; x=a/b; touch $x"],
  ["${IFS} as a word break", () => "rm${IFS}-f${IFS}../work/product/README.md"],
  ["ln -s to the parent", () => `ln -s ${PARENT} ${OPS}/l && rm ${OPS}/l/product/README.md`],
  ["ln -s with a relative target read from the link's directory", () => `ln -s ../work ${OPS}/l2`],
  ["arithmetic with a command substitution", () => `echo $(( $(touch ${P}/x) ))`],
  ["(( )) with a subscript", () => "(( a[$(touch x)] ))"],
  ["a variable evaluated as arithmetic", () => "x='a[$(touch f)]'; (( x ))"],
  ["an unquoted heredoc body runs $(...)", () => `cat <<EOF\n$(touch ${P}/x)\nEOF`],
  ["an unquoted heredoc body runs backticks", () => `cat <<EOF\n\`touch ${P}/x\`\nEOF`],
  ["a carriage return outside quotes", () => "ls\r"],
  ["a backslash-newline in a heredoc delimiter", () => "cat <<E\\\nOF\nx\nEOF"],
  ["a symlink loop", () => `cat ${root}/loop1`],
  ["a path through a regular file", () => `touch ${OPS}/plain/x`],
  ["a command over 256 KiB", () => `echo ${"a ".repeat(140_000)}`],
  ["an unparseable command", () => "echo 'unterminated"],
  ["a brace bomb is refused, not read past the host's timeout", () => `echo ${"{".repeat(20_000)}a,b${"}".repeat(20_000)}`],
  ["nohup in the product (nohup.out)", () => "nohup make", "product"],
  ["sed with a w command in --expression=", () => `sed -n --expression='w ${P}/x' ${P}/README.md`],
  ["sed with a glued -e", () => `sed -ne'w ${P}/x' ${P}/README.md`],
  ["gawk --source with output", () => `gawk --source='BEGIN { print 1 > "${P}/x" }' ${P}/README.md`],
  ["tar c with a snapshot file in the product", () => `tar -c -g ${P}/snar -f ${OPS}/x.tar ${P}`],
  ["python reading an exported variable the hook does not hold", () => `python3 -c 'import os; os.remove(os.environ["PRODUCT_DIR"] + "/README.md")'`],
  ["perl $ENV{...}", () => `perl -e 'unlink "$ENV{PRODUCT_DIR}/README.md"'`],
  ["node process.env", () => `node -e "require('fs').rmSync(process.env.PRODUCT_DIR, {recursive: true})"`],
  ["awk ENVIRON", () => `echo | awk '{ print > ENVIRON["PRODUCT_DIR"] "/x" }'`],
  ["a computed environment key", () => `python3 -c 'import os,sys; os.remove(os.environ[sys.argv[1]])' X`],
  ["a variable naming the product in the hook's environment", () => `python3 -c 'import os; os.remove(os.environ["MOGUI_PRODUCT_REPO"] + "/x")'`],
  ["bash -c with an unknown variable", () => `bash -c 'rm -rf "$PRODUCT_DIR/src"'`],
  ["a program piped into node reading the environment", () => `echo "require('fs').unlinkSync(process.env.PRODUCT_DIR + '/x')" | node`],
  ["a nameref", () => "declare -n r=PRODUCT_DIR; rm -f $r/README.md"],
  ["indirection", () => "v=PRODUCT_DIR; rm -f ${!v}/README.md"],
  ["a cd inside a loop moves again on the next round", () => `cd ${PARENT}; for i in 1 2; do rm -f README.md; cd product; done`],
  ["a substitution runs where the shell is", () => `cd ${P} && echo $(rm README.md)`],
];

const ALLOW: [string, () => string, string?][] = [
  ["cd <P> && git status", () => `cd ${P} && git status`],
  ["cd <P> && ls && cat", () => `cd ${P} && ls && cat README.md`],
  ["git -C <P> status|log|diff|show", () => `git -C ${P} status; git -C ${P} log -1; git -C ${P} diff; git -C ${P} show --stat`],
  ["git branch --list --sort", () => `git -C ${P} branch --list --sort=-committerdate`],
  ["git -c commit.gpgSign=false commit in ops", () => "git -c commit.gpgSign=false commit -m x"],
  ["find without actions", () => `find ${P} -name '*.ts'`],
  ["find -delete in ops", () => "find . -name '*.log' -delete"],
  ["glob in ops", () => "rm -f *.tmp"],
  ["glob over the parent that cannot match the product", () => `rm -rf ${PARENT}/zz*`],
  ["a word over 4 KB that cannot be a path", () => `cat /tmp/${"x".repeat(5000)}`],
  ["a long commit message heredoc", () => `git commit -m "$(cat <<'EOF'\n${"body ".repeat(2000)}\nEOF\n)"`],
  ["while IFS= read", () => 'while IFS= read -r f; do echo "$f"; done < plain'],
  ["arithmetic over literals", () => "echo $((1+2)); for ((i=0;i<3;i++)); do echo $i; done"],
  ["xargs with a reader", () => `ls ${P}/src | xargs wc -l`],
  ["cp a product file out", () => `cp ${P}/README.md ${OPS}/copy.md`],
  ["tar c of the product into ops", () => `tar cf ${OPS}/p.tar -C ${P} .`],
  ["sed -n and awk over a product file", () => `sed -n 1p ${P}/README.md; awk '{ print NR }' ${P}/README.md`],
  ["a quoted carriage return is data", () => "printf 'a\\r\\n'; echo '\r'"],
  ["mkdir -p next to the product", () => `mkdir -p ${PARENT}/other && touch ${PARENT}/other/f`],
  ["a cd that certainly happens moves the cwd out", () => `cd ${OPS} && rm -f plain2`, "product"],
  ["ln -s with no operand (found by the fuzz, seed 22)", () => "ln -s -f"],
  ["a program reading a variable the hook's environment holds", () => `python3 -c 'import os; print(os.environ["HOME"])'; node -e 'console.log(process.env.PATH)'`],
];

const cwdOf = (k?: string) => (k === "product" ? P : k === "parent" ? PARENT : (k ?? OPS));

describe("guard: where static reading cannot decide, block (issue 23)", () => {
  for (const [name, cmd, cwd] of BLOCK) test(name, () => expect({ name, block: bash(cmd(), cwdOf(cwd)).block }).toEqual({ name, block: true }));
});

describe("guard: benign use stays allowed (issue 23)", () => {
  for (const [name, cmd, cwd] of ALLOW) {
    test(name, () => {
      const d = bash(cmd(), cwdOf(cwd));
      expect({ name, block: d.block, reason: d.reason }).toEqual({ name, block: false, reason: expect.any(String) });
    });
  }
});

describe("guard: file tools fail closed too", () => {
  const call = (tool_input: unknown) => decide({ env: env(), cwd: OPS }, { tool_name: "Write", tool_input }, OPS);
  test("a symlink loop, a path through a file, deep or over-full input: blocked", () => {
    expect(call({ file_path: `${root}/loop1` }).block).toBe(true);
    expect(call({ file_path: `${OPS}/plain/x` }).block).toBe(true);
    let deep: unknown = `${OPS}/x`;
    for (let i = 0; i < 40; i++) deep = { file_path: deep };
    expect(call(deep).block).toBe(true);
    expect(call({ paths: Array.from({ length: 300 }, (_, i) => `${OPS}/f${i}`) }).block).toBe(true);
    expect(call({ file_path: `${OPS}/ok.txt` }).block).toBe(false);
  });
});
