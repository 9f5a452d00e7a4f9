/**
 * POSIX-shell-like word splitting for `--restore-cmd` (the reference shlex-splits it). The words become an argv:
 * no shell ever runs, so `;`, `&&`, `$(...)` and globs are plain characters.
 */
export class ShlexError extends Error {
  override name = "ShlexError";
}

export function shlexSplit(text: string): string[] {
  const out: string[] = [];
  let word = "";
  let inWord = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (/\s/.test(ch)) {
      if (inWord) out.push(word);
      word = "";
      inWord = false;
      i++;
      continue;
    }
    inWord = true;
    if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) throw new ShlexError("no closing quotation");
      word += text.slice(i + 1, end);
      i = end + 1;
    } else if (ch === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new ShlexError("no closing quotation");
        const c = text[i]!;
        if (c === '"') break;
        if (c === "\\" && i + 1 < text.length && '\\"$`\n'.includes(text[i + 1]!)) {
          word += text[i + 1];
          i += 2;
          continue;
        }
        word += c;
        i++;
      }
      i++;
    } else if (ch === "\\") {
      if (i + 1 >= text.length) throw new ShlexError("no escaped character");
      word += text[i + 1];
      i += 2;
    } else {
      word += ch;
      i++;
    }
  }
  if (inWord) out.push(word);
  return out;
}
