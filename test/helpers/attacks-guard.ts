/**
 * Attacks on the static guard beyond the shared table (test/helpers/attacks.ts), same shape and placeholders (`$P`
 * the product, `$W` the scratch directory and cwd). Each changes the product when run unprotected.
 */
import type { Attack } from "./attacks.ts";

const rows: [string, string][] = [
  ["guard-glued", "sort -o$P/README.md /etc/hostname"],
  ["guard-glued", "cp -t$P /etc/hostname"],
  ["guard-env", "env -C$P rm -f README.md"],
  ["guard-env", "env -iC $P rm -f README.md"],
  ["guard-env", "sudo -D $P rm -f README.md 2>/dev/null || env -C $P rm -f README.md"],
  ["guard-cd", "(cd /tmp); cd $P; cd $W; (cd $P) ; cd $P & wait; rm -f $W/../p/product/README.md"],
  ["guard-symlink-dotdot", "ln -s $P/src $W/s; touch $W/s/../evil"],
  ["guard-xargs", "find $W/.. -maxdepth 2 -name product | xargs -I{} touch {}/xargs-evil"],
  ["guard-heredoc-unquoted", "cat <<EOF\n$(touch $P/heredoc-sub)\nEOF"],
  ["guard-arith", "echo $(( $(touch $P/arith) 0 ))"],
  ["guard-git", "git ls-remote --upload-pack='touch $P/up; false' $W 2>/dev/null; true"],
  ["guard-git", "git -C $P branch --set-upstream-to=origin/main 2>/dev/null || git -C $P config branch.main.remote origin"],
  ["guard-time", "/usr/bin/time -o $P/time.txt true 2>/dev/null || touch $P/time.txt"],
  ["guard-stdin-program", "echo \"open('$P/py-stdin','w')\" | python3"],
  ["guard-stdin-program", "printf 'w %s/ed-out\\nq\\n' $P | ed -s /etc/hostname"],
  ["guard-proc-cwd", "cd $P && echo x > /proc/self/cwd/README.md"],
  ["guard-glob-parent", "rm -rf $W/../p/prod*/src"],
  ["guard-ancestor", "chmod -R a-w $W/../p"],
  ["guard-git-ancestor", "git init -q $W/../p && git -C $W/../p clean -ffdxq"],
  ["guard-ifs", "rm${IFS}-f${IFS}../p/product/README.md"],
  ["guard-loop", "ln -s $W/a $W/b; ln -s $W/b $W/a; touch $W/a 2>/dev/null; rm -f $P/README.md"],
];

export const GUARD_ATTACKS: Attack[] = rows.map(([cls, cmd], i) => ({ id: `${cls}-${i + 1}`, cls, cmd }));
