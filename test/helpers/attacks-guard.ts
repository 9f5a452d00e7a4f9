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
  ["guard-glob-parent", "echo x > $W/../p/produc?/README.md"],
  ["guard-glob-parent", "touch $W/../*/product/README.md"],
  ["guard-ancestor", "mv $W/../p $W/moved-parent"],
  ["guard-ancestor", "rm -rf $W/../p"],
  ["guard-cd", "pushd $P >/dev/null; pushd $W >/dev/null; pushd >/dev/null; rm README.md"],
  ["guard-cd", "cd $P/src; cd ..; rm README.md"],
  ["guard-cd", "cd $W/.. && cd p && rm product/README.md"],
  ["guard-env", 'env -S "rm -f $P/README.md"'],
  ["guard-env", "env --chdir=$P rm -f README.md"],
  ["guard-glued", "install -D -t$P /etc/hostname"],
  ["guard-xargs", "echo README.md | (cd $P && xargs rm)"],
  ["guard-symlink", "ln -s $W/../p $W/l && rm -f $W/l/product/README.md"],
  ["guard-symlink", "ln -s .. $W/up && rm $W/up/p/product/README.md"],
  ["guard-arith", "x='a[$(touch $P/arith2)]'; (( x )) 2>/dev/null; true"],
  ["guard-ifs", "rm${IFS}-f${IFS}../p/product/README.md"],
  ["guard-loop", "ln -s $W/a $W/b; ln -s $W/b $W/a; touch $W/a 2>/dev/null; rm -f $P/README.md"],
];

export const GUARD_ATTACKS: Attack[] = rows.map(([cls, cmd], i) => ({ id: `${cls}-${i + 1}`, cls, cmd }));
