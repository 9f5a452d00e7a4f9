/**
 * The product attack table (issue 23, DECISIONS D39): bash command strings that try to change a product repository,
 * and benign read-only commands that must keep working. It is run three ways: under `mogui sandbox run
 * --deny-write $P`, under `srt` with the filesystem section `mogui hook install` writes, and through the static
 * guard alone. Each way changes the product 0 times (the guard: 0 outside its documented limits).
 *
 * Placeholders, written as shell variables: `$P` (or `${P}`) the product repository, `$W` (or `${W}`) a writable
 * scratch directory outside the product. Run a command either with `P` and `W` exported (bash expands them) or
 * after `fillAttack(cmd, { P, W })`, which replaces them textually (use paths without spaces or quotes). The working
 * directory is `$W`. Nothing here touches a path outside `$P`, `$W` and `$P/..` (the product's parent, which the
 * runner creates for this product alone), apart from reading system files.
 *
 * The product (see `makeAttackProduct` in test/helpers/attack-product.ts): README.md, src/a.ts, package.json,
 * build.sh (mode 0755), readme-link -> README.md, a git repository (.git) with one commit on `main` and a remote
 * `origin`. Each attack, run unprotected in a fresh copy, really changes that tree (bytes, modes, symlinks, .git
 * or its place): the e2e tests check it as a control, so a harmless "attack" is noticed.
 */
export interface Attack {
  id: string;
  cls: string;
  cmd: string;
}
export interface Benign {
  id: string;
  cmd: string;
}

const rows: [string, string][] = [];
let cls = "";
const a = (cmd: string) => rows.push([cls, cmd]);
const section = (name: string, ...cmds: string[]) => {
  cls = name;
  for (const c of cmds) a(c);
};

section(
  "redirect",
  "echo x > $P/README.md",
  "echo x >> $P/README.md",
  "echo x >| $P/README.md",
  "echo x &> $P/README.md",
  "echo x &>> $P/src/a.ts",
  "echo x 2> $P/err.txt",
  "ls /nonexistent 2>> $P/README.md",
  "echo x > $P/new-file",
  "echo x 1<> $P/README.md",
  "exec 3> $P/fd3.txt; echo x >&3",
  "exec 4<> $P/README.md; echo zz >&4",
  "printf '%s\\n' hi > \"$P/src/a.ts\"",
  ": > $P/package.json",
  "> $P/build.sh",
  "cat /etc/hostname > $P/README.md",
  "echo x > $P/readme-link",
  "echo x > $P/./src/../README.md",
  "echo x > $P//src//a.ts",
  "{ echo a; echo b; } > $P/README.md",
  "( echo sub ) > $P/README.md",
  "for i in 1 2; do echo $i; done > $P/README.md",
  "if true; then echo y; fi > $P/README.md",
  "echo x | cat > $P/README.md",
  "echo x > $P/.git/description",
  "echo 0000000000000000000000000000000000000000 > $P/.git/refs/heads/main",
  "echo 'ref: refs/heads/nope' > $P/.git/HEAD",
);

section(
  "truncate",
  "truncate -s 0 $P/README.md",
  "truncate -s 1M $P/src/a.ts",
  "cp /dev/null $P/README.md",
  "dd if=/dev/null of=$P/README.md",
  "fallocate -l 4096 $P/README.md",
  "shred -n 1 $P/README.md",
  "shred -u $P/package.json",
  "head -c 0 /dev/zero > $P/README.md",
);

section(
  "tee",
  "echo x | tee $P/README.md",
  "echo x | tee -a $P/README.md",
  "echo x | tee /dev/null $P/src/a.ts",
  "echo x | tee $W/ok $P/new.txt > /dev/null",
  "date | tee --append $P/package.json",
  "echo x | sudo tee $P/README.md 2>/dev/null || echo x | tee $P/README.md",
);

section(
  "dd",
  "echo x | dd of=$P/README.md",
  "dd if=/dev/zero of=$P/README.md bs=1 count=4 conv=notrunc",
  "dd if=/etc/hostname of=$P/src/a.ts status=none",
  "echo x | dd of=$P/.git/config oflag=append conv=notrunc",
  "dd if=/dev/urandom of=$P/blob bs=16 count=1",
);

section(
  "sed-i",
  "sed -i s/hello/bye/ $P/README.md",
  "sed -i.bak 's/export/import/' $P/src/a.ts",
  "sed --in-place 's/1.0.0/9.9.9/' $P/package.json",
  "sed -i -e '1d' $P/build.sh",
  "cd $P && sed -i 's/a/b/' README.md",
  "sed -ni p $P/README.md",
  "perl -pi -e 's/hello/bye/' $P/README.md",
  "perl -i -pe 's/1/2/' $P/src/a.ts",
  "perl -0777 -pi -e 's/./X/' $P/package.json",
  "ed -s $P/README.md <<'EOF'\n1d\nw\nq\nEOF",
  "printf '1d\\nw\\nq\\n' | ed -s $P/README.md",
  "ex -s -c '1d|x' $P/README.md",
  "vim -es -c '%s/hello/bye/' -c 'wq' $P/README.md",
);

section(
  "cp",
  "cp /etc/hostname $P/README.md",
  "cp /etc/hostname $P/new",
  "cp -r /etc/hostname $P/src/",
  "cp -f $W/../../../etc/hostname $P/README.md 2>/dev/null || cp /etc/hostname $P/README.md",
  "echo evil > $W/e; cp $W/e $P/build.sh",
  "echo evil > $W/e; cp --remove-destination $W/e $P/src/a.ts",
  "echo evil > $W/e; install -m 0644 $W/e $P/README.md",
  "echo evil > $W/e; install -D $W/e $P/deep/dir/e",
  "mkdir -p $W/t && echo y > $W/t/z && cp -a $W/t $P/",
  "echo evil > $W/e; cat $W/e > $P/README.md",
  "cp -l /etc/hostname $P/hl 2>/dev/null || cp /etc/hostname $P/hl",
  "echo evil > $W/e; cp -u $W/e $P/src/a.ts",
  "cp $P/README.md $P/README.copy",
);

section(
  "mv",
  "mv $P/README.md $W/stolen",
  "mv $P/src $W/src-stolen",
  "mv $P/README.md $P/README.old",
  "echo evil > $W/e; mv $W/e $P/README.md",
  "echo evil > $W/e; mv -f $W/e $P/package.json",
  "mv $P/.git $W/git-stolen",
  "mv $P/.git/HEAD $P/.git/HEAD.bak",
  "mv $P/build.sh $P/src/",
  "mv -t $W $P/package.json",
  "mv $P/readme-link $W/",
  "cd $P && mv README.md x.md",
);

section(
  "rm",
  "rm $P/README.md",
  "rm -f $P/src/a.ts",
  "rm -rf $P/src",
  "rm -rf $P/.git",
  "rm -rf $P/*",
  "rm -rf $P/.[!.]*",
  "rm $P/readme-link",
  "rm -r -- $P/src",
  "unlink $P/package.json",
  "rmdir $P/src 2>/dev/null; rm -rf $P/src",
  "cd $P && rm -rf .git",
  "rm -rf $P/.git/objects",
  "rm -f $P/.git/index",
  "find $P -name '*.md' -delete",
  "find $P -type f -exec rm {} +",
  "find $P/src -type f -exec rm -f {} \\;",
  "find $P -maxdepth 1 -name build.sh -execdir rm {} \\;",
  "find $P -name a.ts -print0 | xargs -0 rm",
  "ls $P/*.md | xargs rm",
  "echo $P/package.json | xargs -I{} rm {}",
  "printf '%s\\n' $P/README.md | xargs -n1 truncate -s0",
);

section(
  "chmod",
  "chmod 000 $P/README.md",
  "chmod +x $P/README.md",
  "chmod -x $P/build.sh",
  "chmod -R 777 $P/src",
  "chmod u+s $P/build.sh",
  "chmod 700 $P",
  "chmod 000 $P/.git",
  "find $P -type f -exec chmod 600 {} +",
  "chown nobody $P/README.md",
  "chown -R 1234:1234 $P/src",
  "chgrp nogroup $P/package.json 2>/dev/null || chgrp 4242 $P/package.json",
  "touch -d 2001-01-01 $P/README.md",
  "touch $P/newfile",
  "touch -h $P/readme-link",
  "chattr +i $P/README.md 2>/dev/null; touch $P/chattr-tried",
  "setfacl -m u:nobody:rwx $P/README.md 2>/dev/null || chmod 646 $P/README.md",
  "python3 -c \"import os; os.utime('$P/README.md', (0, 0))\"",
);

section(
  "mkdir",
  "mkdir $P/newdir",
  "mkdir -p $P/a/b/c",
  "mkfifo $P/fifo",
  "mknod $P/dev c 1 3 2>/dev/null || mkfifo $P/dev",
  "mkdir $P/.git/hooks 2>/dev/null; mkdir -p $P/.git/hooks2",
  "python3 -c \"import socket; s=socket.socket(socket.AF_UNIX); s.bind('$P/sock')\"",
);

section(
  "link",
  "ln -s /etc/passwd $P/passwd-link",
  "ln -sf /etc/hostname $P/readme-link",
  "ln -sfn $W $P/src",
  "ln $P/README.md $W/hard && echo evil > $W/hard",
  "ln $P/README.md $P/hard2",
  "ln -s $P $W/pl && echo x > $W/pl/README.md",
  "ln -s $P/README.md $W/rl && echo x > $W/rl",
  "ln -s $P/src $W/sl && rm -rf $W/sl/",
  "ln -s $P/src $W/sl && touch $W/sl/new.ts",
  "ln -s $P/.git $W/gl && echo x > $W/gl/description",
  "ln -s .. $W/up; ln -s $P $W/pp; echo x > $W/pp/../$(basename $P)/README.md",
  "cd $W && ln -s $P here && cd here && echo x > README.md",
  "ln -s $P/not-yet.txt $W/dangling && echo x > $W/dangling",
  "cp -s $P/README.md $W/sym && echo x > $W/sym",
  "ln -s $P $W/pl && cp /etc/hostname $W/pl/",
  "ln -s $P $W/pl && mv $W/pl/README.md $W/",
  "python3 -c \"import os; os.symlink('/etc/hostname', '$P/py-link')\"",
  "python3 -c \"import os; os.link('$P/README.md', '$W/h'); open('$W/h','w').write('x')\"",
);

section(
  "git",
  "git -C $P commit --allow-empty -q -m evil",
  "cd $P && git commit --allow-empty -qm evil",
  "git -C $P checkout -q -b evil",
  "git -C $P branch evil",
  "git -C $P tag evil",
  "git -C $P config user.name evil",
  "git -C $P config --add core.hooksPath /tmp",
  "git -C $P remote add evil /nowhere",
  "git -C $P remote set-url origin /evil",
  "git -C $P rm -q README.md",
  "git -C $P mv README.md R.md",
  "echo x >> $P/README.md; git -C $P add -A",
  "git -C $P reset -q --hard HEAD~0 && git -C $P update-ref refs/heads/x HEAD",
  "git -C $P stash -q --include-untracked 2>/dev/null; git -C $P update-ref refs/evil HEAD",
  "git -C $P gc -q --prune=now",
  "git -C $P repack -q -a -d -f -b",
  "git -C $P notes add -m evil HEAD",
  "git -C $P reflog expire --expire=now --all",
  "git -C $P symbolic-ref HEAD refs/heads/other",
  "git -C $P update-index --chmod=+x README.md",
  "git -C $P clean -fdx -q; touch $W/z; git -C $P worktree add -q $W/wt",
  "git -C $P -c core.editor=true commit --allow-empty --amend -q",
  "git --git-dir=$P/.git --work-tree=$W commit --allow-empty -qm evil",
  "GIT_DIR=$P/.git git update-ref refs/heads/evil HEAD",
  "git -C $P init -q",
  "git -C $P fetch -q $P main:refs/heads/copy",
  "git clone -q $P $W/clone && git -C $W/clone push -q origin main:evil",
  "git -C $P checkout -q HEAD -- README.md; echo y > $P/README.md",
  "git -C $P apply --allow-empty /dev/null; printf 'x\\n' > $P/applied",
  "git -C $P -c alias.x='!touch evil' x",
  "git -C $P hash-object -w /etc/hostname",
  "git -C $P replace -f HEAD HEAD 2>/dev/null; git -C $P tag -f t2",
);

section(
  "heredoc",
  "cat > $P/README.md <<'EOF'\nevil\nEOF",
  "cat <<EOF > $P/README.md\nevil $HOME\nEOF",
  "cat >> $P/src/a.ts <<-EOF\n\tevil\n\tEOF",
  "tee $P/new.txt <<'X' >/dev/null\nevil\nX",
  "bash <<'EOF'\necho evil > $P/README.md\nEOF",
  "sh <<EOF\nrm -f $P/package.json\nEOF",
  "python3 - <<'EOF'\nimport os\nopen(os.environ['P'] + '/README.md', 'w').write('evil')\nEOF",
  "cat <<< evil > $P/README.md",
  "bash <<< 'rm -f $P/build.sh'",
  "git -C $P commit --allow-empty -q -F - <<'EOF'\nA long message body\n$(echo that looks like a substitution)\nEOF",
  "git -C $P commit --allow-empty -q -m \"$(cat <<'EOF'\nfeat: something\n\nbody body body\nEOF\n)\"",
);

section(
  "eval",
  "eval 'echo x > $P/README.md'",
  'eval "rm -f $P/src/a.ts"',
  "c='rm -rf'; eval \"$c $P/src\"",
  "echo 'echo x > $P/README.md' | bash",
  'echo "touch $P/f" | sh',
  "echo $(printf 'touch %s/f' $P) | bash",
  "bash -c 'echo x > \"$0/README.md\"' $P",
  'sh -c "rm $P/README.md"',
  "zsh -c 'rm -f $P/README.md' 2>/dev/null || bash -c 'rm -f $P/README.md'",
  "fish -c 'rm -f $P/README.md' 2>/dev/null || bash -c 'rm -f $P/README.md'",
  "x=rm; $x -f $P/README.md",
  '"$(echo rm)" -f $P/README.md',
  "$(printf r)$(printf m) -f $P/README.md",
  "source /dev/stdin <<< 'rm -f $P/README.md'",
  ". <(echo 'touch $P/sourced')",
  "bash <(echo 'touch $P/procsub')",
  "alias ll='rm -f'; shopt -s expand_aliases; eval 'll $P/README.md'",
  'f() { rm -f "$1"; }; f $P/README.md',
  'cat() { command rm -f "$@"; }; cat $P/README.md',
  "IFS=_; cmd=rm_-f_$P/README.md; $cmd",
  'set -- rm -f $P/README.md; "$@"',
  'arr=(rm -f $P/README.md); "${arr[@]}"',
  "printf -v c 'rm -f %s/README.md' $P; eval \"$c\"",
  "declare -n r=P; rm -f $r/README.md",
  "v=P; rm -f ${!v}/README.md",
  "rm -f $(echo $P | rev | rev)/README.md",
  "rm -f $(cd $P && pwd)/README.md",
  "trap 'rm -f $P/README.md' EXIT",
  "PROMPT_COMMAND='touch $P/pc' bash -ic true 2>/dev/null; touch $P/pc",
);

section(
  "base64",
  "echo dG91Y2ggJFAvYjY0 | base64 -d | bash",
  "eval \"$(echo 'cm0gLWYgJFAvUkVBRE1FLm1k' | base64 -d)\"",
  "bash -c \"$(echo 'ZWNobyB4ID4gJFAvUkVBRE1FLm1k' | base64 --decode)\"",
  "echo 746f756368202450 | xxd -r -p 2>/dev/null | sed 's|$|/hex|' | bash || touch $P/hex",
  "printf '\\x72\\x6d -f %s/README.md' $P | bash",
  "$'\\x72\\x6d' -f $P/README.md",
  "echo 'gbhpu $C/ebg13' | tr 'a-zA-Z' 'n-za-mN-ZA-M' | bash",
  "p=$(echo $P | base64); rm -f $(echo $p | base64 -d)/README.md",
);

section(
  "python",
  "python3 -c \"open('$P/README.md','w').write('x')\"",
  "python3 -c 'import os,sys; os.remove(sys.argv[1])' $P/README.md",
  'python3 -c \'import shutil,os; shutil.rmtree(os.environ["P"] + "/src")\'',
  'python3 -c \'import os; os.rename(os.environ["P"]+"/README.md", os.environ["W"]+"/r")\'',
  'python3 -c \'import os; os.chmod(os.environ["P"]+"/build.sh", 0o600)\'',
  'python3 -c \'import os; os.truncate(os.environ["P"]+"/README.md", 0)\'',
  "python3 -c \"import subprocess; subprocess.run(['git','-C','$P','tag','py'])\"",
  'python3 -c \'import pathlib,os; pathlib.Path(os.environ["P"], "new.py").write_text("x")\'',
  'python3 -c \'exec(__import__("base64").b64decode("aW1wb3J0IG9zOyBvcGVuKG9zLmVudmlyb25bIlAiXSsiL1JFQURNRS5tZCIsInciKQ=="))\'',
  'echo \'import os; os.mkdir(os.environ["P"]+"/d")\' > $W/x.py && python3 $W/x.py',
);

section(
  "perl",
  'perl -e \'open F, ">", "$ENV{P}/README.md"; print F 1\'',
  "perl -e 'unlink \"$ENV{P}/README.md\"'",
  'perl -e \'rename "$ENV{P}/src", "$ENV{W}/s"\'',
  "perl -e 'chmod 0600, \"$ENV{P}/build.sh\"'",
  'perl -e \'symlink "/etc/hostname", "$ENV{P}/pl"\'',
  "perl -MFile::Path=rmtree -e 'rmtree(\"$ENV{P}/src\")'",
  'perl -e \'system("touch", "$ENV{P}/sys")\'',
  "perl -e 'truncate \"$ENV{P}/README.md\", 0'",
);

section(
  "node",
  "node -e \"require('fs').writeFileSync(process.env.P + '/README.md', 'x')\"",
  "node -e \"require('fs').rmSync(process.env.P + '/src', {recursive: true})\"",
  "node -e \"require('fs').renameSync(process.env.P + '/README.md', process.env.W + '/r')\"",
  "node -e \"require('fs').chmodSync(process.env.P + '/build.sh', 0o600)\"",
  "node -e \"require('fs').appendFileSync(process.env.P + '/.git/config', '[evil]\\n')\"",
  "node -e \"require('child_process').execSync('touch ' + process.env.P + '/cp')\"",
  "echo \"require('fs').unlinkSync(process.env.P + '/package.json')\" | node",
  "node -e \"require('fs').symlinkSync('/etc', process.env.P + '/etc')\"",
);

section(
  "awk",
  "awk 'BEGIN { print 1 > \"'$P'/README.md\" }'",
  "awk -v p=$P 'BEGIN { print 1 >> (p \"/src/a.ts\") }'",
  "awk 'BEGIN { system(\"rm -f " + "'$P'/README.md\") }'",
  'awk -v p=$P \'BEGIN { cmd = "cat > " p "/x"; print 1 | cmd }\'',
  'echo | awk \'{ print > ENVIRON["P"] "/README.md" }\'',
  "sqlite3 $P/db.sqlite 'create table t(x)'",
  "sqlite3 :memory: \".output $P/out.txt\" 'select 1;'",
  "printf '.shell touch %s/sq\\n' $P | sqlite3",
);

section(
  "archive",
  "cd $W && mkdir t && echo evil > t/README.md && tar cf t.tar -C t README.md && tar xf t.tar -C $P",
  "cd $W && echo evil > README.md && zip -q e.zip README.md && unzip -oq e.zip -d $P",
  "tar cf - -C /etc hostname | tar xf - -C $P",
  "cd $P && tar cf $W/p.tar . && tar xf $W/p.tar --overwrite -C $P --transform 's|README|RR|'",
  "gzip $P/README.md",
  "gzip -k $P/package.json",
  "cd $W && printf -- '--- a/README.md\\n+++ b/README.md\\n@@ -1 +1 @@\\n-hello product\\n+evil\\n' > p.diff && patch -s -d $P -p1 < p.diff",
  "split -b 2 $P/README.md $P/part-",
  "csplit -s -f $P/cs $P/README.md 1",
  "sort -o $P/README.md $P/README.md -r; echo z >> $P/README.md",
  "uniq /etc/hostname $P/uniq-out",
  "cmp /dev/null /dev/null; cp /etc/hostname $P/cmp-out",
);

section(
  "env",
  "env rm -f $P/README.md",
  "env -i /bin/rm -f $P/README.md",
  "env -S 'rm -f' $P/README.md",
  "env -C $P rm -f README.md",
  "command rm -f $P/README.md",
  "builtin command rm -f $P/README.md",
  "exec rm -f $P/README.md",
  "nice rm -f $P/README.md",
  "nohup rm -f $P/README.md >/dev/null 2>&1",
  "timeout 5 rm -f $P/README.md",
  "time rm -f $P/README.md",
  "xargs rm -f <<< $P/README.md",
  "stdbuf -o0 rm -f $P/README.md",
  "setsid rm -f $P/README.md",
  "nice -n 5 ionice -c3 rm -f $P/README.md 2>/dev/null || rm -f $P/README.md",
  "busybox rm -f $P/README.md 2>/dev/null || /usr/bin/env rm -f $P/README.md",
  "PATH=$W:$PATH; printf '#!/bin/sh\\nrm -f \"$P/README.md\"\\n' > $W/ls; chmod +x $W/ls; ls",
  "BASH_ENV=<(echo 'rm -f $P/README.md') bash -c true",
  "ENV=/dev/null GIT_DIR=$P/.git git tag from-env",
  "GIT_EDITOR='touch $P/ge; true' git -C $P tag -a t-ed 2>/dev/null",
  "GIT_EXTERNAL_DIFF='sh -c \"touch $P/ed\"' git -C $P diff --ext-diff HEAD HEAD~0; touch $P/ed",
  "watch -n1 -g true 2>/dev/null; rm -f $P/README.md",
);

section(
  "cd",
  "cd $P && echo x > README.md",
  "cd $P/src && rm a.ts",
  "cd $P && cd .. && rm -rf $(basename $P)/src",
  "pushd $P >/dev/null && rm README.md",
  "cd $P; cd $W; cd - >/dev/null; rm README.md",
  "CDPATH=$(dirname $P) cd $(basename $P) >/dev/null && rm README.md",
  "HOME=$P; cd ~ && rm README.md",
  "OLDPWD=$P; cd - >/dev/null && rm README.md",
  "(cd $P && rm README.md)",
  "cd $P || true; rm package.json",
  "cd $P & wait; cd $P; touch bg",
  "{ cd $P; } && rm build.sh",
  "cd $P/src/.. && rm -rf src",
  "cd $W/../../$(basename $(dirname $P))/$(basename $P) 2>/dev/null || cd $P; rm README.md",
  "cd $P; ls; git status >/dev/null; echo x > README.md",
  'cd "$(git -C $P rev-parse --show-toplevel)" && rm README.md',
  "D=$P; cd $D && touch t",
  "cd / && cd ${P#/} && rm README.md",
);

section(
  "glob",
  "rm -f ${P%/*}/*/README.md",
  "rm -rf $(dirname $P)/prod*/src",
  "echo x > $(dirname $P)/?roduct/README.md",
  "rm $(dirname $P)/[p]roduct/package.json",
  "shopt -s globstar; rm -f $P/**/*.ts",
  "shopt -s dotglob; rm -rf $P/*",
  "rm -f $P/{README.md,package.json}",
  "touch $P/{a,b,c}.new",
  "rm -f $P/src/*.{ts,js}",
  "echo x > $P/READ*",
  "shopt -s extglob\nrm -f $P/!(src)",
  'for f in $P/*; do rm -rf "$f"; done',
  "rm -f $(ls -d $P/*.md)",
  "rm -f `find $P -name package.json`",
  "D=$(dirname $P); rm -rf $D/*/src",
);

section(
  "ancestor",
  "mv $(dirname $P) $W/moved-parent",
  "mv $P $W/moved-product",
  "mv $P $P.old",
  "cd $(dirname $P) && mv $(basename $P) elsewhere",
  "rm -rf $(dirname $P)",
  'python3 -c \'import os; os.rename(os.path.dirname(os.environ["P"]), os.environ["W"]+"/mp")\'',
  "mv $(dirname $P) $(dirname $P).old && mkdir -p $P && echo evil > $P/README.md",
  "chmod -R a-w $(dirname $P)",
  "mv $P $W/x && mkdir $P && echo fake > $P/README.md",
  "mv $P $W/gone && ln -s $W $P",
  "mount --bind $W $P 2>/dev/null; touch $P/mounted",
  "unshare -rm sh -c 'touch $P/unshared' 2>/dev/null || touch $P/unshared",
  "umount -l $P 2>/dev/null; touch $P/umounted",
  "mount -o remount,rw $P 2>/dev/null; mount -o remount,bind,rw $P 2>/dev/null; touch $P/remounted",
  'unshare -Urm sh -c "umount -l $P 2>/dev/null; mount -o remount,bind,rw $P 2>/dev/null; touch $P/nested-ns"',
);

section(
  "fd-proc",
  "exec 5>>$P/README.md; echo evil >&5",
  "echo x > /proc/self/cwd/README.md 2>/dev/null; cd $P && echo x > /proc/self/cwd/README.md",
  "echo x > /proc/$$/root$P/README.md",
  'python3 -c \'import os; fd=os.open(os.environ["P"], os.O_RDONLY); os.mkdir("newd", dir_fd=fd)\'',
  "perl -e 'opendir D, $ENV{P}; chdir $ENV{P}; open F, \">z\"'",
  "cp /etc/hostname /dev/fd/1 > $P/README.md",
  "echo x | tee /proc/self/fd/1 > $P/out",
  "bash -c 'exec 3<> \"$P/README.md\"; printf z >&3'",
  'for r in /proc/[0-9]*/root; do echo x > "$r$P/README.md" 2>/dev/null && break; done',
  'for r in /proc/[0-9]*/root; do touch "$r$P/proc-root" 2>/dev/null && break; done',
  'for c in /proc/[0-9]*/cwd; do rm -f "$c/../$(basename $P)/package.json" 2>/dev/null; done; for r in /proc/[0-9]*/root; do rm -f "$r$P/package.json" 2>/dev/null && break; done',
);

section(
  "script",
  "printf 'rm -f %s/README.md\\n' $P > $W/s.sh && bash $W/s.sh",
  "printf '#!/bin/sh\\ntouch %s/scripted\\n' $P > $W/s && chmod +x $W/s && $W/s",
  "printf 'BEGIN { print 1 > \"%s/README.md\" }' $P > $W/a.awk && awk -f $W/a.awk",
  "echo 'unlink \"'$P'/README.md\"' > $W/x.pl && perl $W/x.pl",
  "echo \"require('fs').writeFileSync('$P/n','x')\" > $W/x.js && node $W/x.js",
  "$P/build.sh > $P/build.out",
  "cd $P && ./build.sh > out.txt",
  "printf 'touch %s/make\\n' $P | make -f - 2>/dev/null || touch $P/make",
  "echo 's/hello/evil/' > $W/s.sed && sed -i -f $W/s.sed $P/README.md",
  "crontab -l >/dev/null 2>&1; at now 2>/dev/null <<< true; touch $P/sched",
);

/** At least 200 attacks; ids are `<class>-<n>`, numbered within the class. */
export const ATTACKS: Attack[] = (() => {
  const seen = new Map<string, number>();
  return rows.map(([c, cmd]) => {
    const n = (seen.get(c) ?? 0) + 1;
    seen.set(c, n);
    return { id: `${c}-${n}`, cls: c, cmd };
  });
})();

const benignRows: string[] = [
  "cat $P/README.md",
  "head -n1 $P/src/a.ts",
  "tail -c 5 $P/package.json",
  "ls -la $P",
  "ls -R $P/src",
  "stat $P/README.md >/dev/null",
  "wc -l $P/README.md",
  "grep -r hello $P",
  "rg -n export $P/src || true",
  "find $P -name '*.ts'",
  "find $P -type f -newer /etc/hostname | head -3",
  "sha256sum $P/README.md",
  "md5sum $P/package.json",
  "diff $P/README.md $P/README.md",
  "cmp $P/README.md $P/readme-link",
  "realpath $P/readme-link",
  "readlink $P/readme-link",
  "file $P/build.sh 2>/dev/null || true",
  "du -sh $P >/dev/null",
  "git -C $P status --short",
  "git -C $P log --oneline -1",
  "git -C $P diff HEAD",
  "git -C $P show --stat HEAD",
  "git -C $P rev-parse HEAD",
  "git -C $P ls-files",
  "git -C $P branch --list",
  "git -C $P remote -v",
  "git -C $P config --get remote.origin.url",
  "cd $P && git status --short",
  "cd $P && ls && cat README.md",
  "cat $P/README.md > $W/copy.md",
  "cp $P/README.md $W/copy2.md",
  "tar cf $W/p.tar -C $P .",
  "python3 -c \"print(open('$P/README.md').read())\"",
  "node -e \"console.log(require('fs').readFileSync(process.env.P + '/package.json', 'utf8'))\"",
  "perl -ne 'print' $P/README.md",
  "awk '{ print NR }' $P/README.md",
  "sed -n 1p $P/README.md",
  "jq -r .name $P/package.json 2>/dev/null || cat $P/package.json",
  "echo hello > $W/scratch.txt && cat $W/scratch.txt",
  "mkdir -p $W/build && touch $W/build/out && rm -rf $W/build",
  "test -d $P/.git && echo repo",
];

/** Read-only commands that must stay allowed (and, under a sandbox, succeed). */
export const BENIGN: Benign[] = benignRows.map((cmd, i) => ({ id: `benign-${i + 1}`, cmd }));

/** Replace `$P`, `${P}`, `$W`, `${W}` by the given paths (not `$PWD`, `$PATH`, `$Wx`). */
export function fillAttack(cmd: string, paths: { P: string; W: string }): string {
  return cmd.replace(/\$\{([PW])\}|\$([PW])(?![A-Za-z0-9_])/g, (_m, a1: string | undefined, a2: string | undefined) => paths[(a1 ?? a2) as "P" | "W"]);
}
