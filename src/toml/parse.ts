/**
 * A TOML 1.0 reader sufficient for gitleaks rule files and Codex `config.toml`: tables, arrays of tables, dotted and
 * quoted keys, all four string forms (incl. `'''regex'''`), integers (dec/hex/oct/bin), floats, booleans, date-times
 * (kept as their source text), arrays (multi-line, trailing comma, comments) and inline tables.
 *
 * Errors are `TomlError` with a message that names the 1-based line, so a config problem can be reported as
 * `<file>: line N: ...` without a stack trace.
 */

export class TomlError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
    this.name = "TomlError";
  }
}

type Table = Record<string, unknown>;

const BARE_KEY = /[A-Za-z0-9_-]/;

export function parseToml(text: string): Record<string, unknown> {
  return new Parser(text).parseDocument();
}

class Parser {
  private pos = 0;
  private readonly root: Table = Object.create(null);
  /** Tables created by a `[header]` (or `[[header]]` element): a second `[header]` for them is an error. */
  private readonly explicit = new Set<Table>();
  /** Tables implicitly created by a dotted key in a key/value pair: no `[header]` may reopen them. */
  private readonly dotted = new Set<Table>();
  /** Inline tables and literal arrays: immutable once written. */
  private readonly frozen = new Set<unknown>();
  /** Arrays created by `[[header]]` (only these may be appended to by a later `[[header]]`). */
  private readonly tableArrays = new Set<unknown[]>();

  constructor(private readonly src: string) {
    if (src.charCodeAt(0) === 0xfeff) this.pos = 1;
  }

  private line(at = this.pos): number {
    let n = 1;
    for (let i = 0; i < at && i < this.src.length; i++) if (this.src.charCodeAt(i) === 10) n++;
    return n;
  }

  private fail(msg: string, at = this.pos): never {
    throw new TomlError(msg, this.line(at));
  }

  private peek(off = 0): string {
    return this.src[this.pos + off] ?? "";
  }

  private startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  private skipWs(): void {
    while (this.peek() === " " || this.peek() === "\t") this.pos++;
  }

  private skipComment(): void {
    if (this.peek() !== "#") return;
    while (this.pos < this.src.length && this.peek() !== "\n") {
      const c = this.src.charCodeAt(this.pos);
      if ((c < 0x20 && c !== 9 && c !== 13) || c === 0x7f) this.fail("control character in comment");
      this.pos++;
    }
  }

  /** After a statement: optional whitespace and comment, then a newline or EOF. */
  private endOfLine(): void {
    this.skipWs();
    this.skipComment();
    if (this.pos >= this.src.length) return;
    if (this.startsWith("\r\n")) this.pos += 2;
    else if (this.peek() === "\n") this.pos++;
    else this.fail(`unexpected '${this.peek()}' after a value (expected end of line)`);
  }

  /** Whitespace, newlines and comments (inside arrays and between statements). */
  private skipBlank(): void {
    for (;;) {
      this.skipWs();
      this.skipComment();
      if (this.startsWith("\r\n")) this.pos += 2;
      else if (this.peek() === "\n") this.pos++;
      else return;
    }
  }

  parseDocument(): Table {
    let current = this.root;
    for (;;) {
      this.skipBlank();
      if (this.pos >= this.src.length) return this.root;
      if (this.startsWith("[[")) current = this.arrayTableHeader();
      else if (this.peek() === "[") current = this.tableHeader();
      else this.keyValue(current);
      this.endOfLine();
    }
  }

  private tableHeader(): Table {
    const at = this.pos;
    this.pos++;
    this.skipWs();
    const keys = this.key();
    this.skipWs();
    if (this.peek() !== "]") this.fail("expected ']' to close the table header");
    this.pos++;
    const parent = this.walk(this.root, keys.slice(0, -1), at, true);
    const last = keys[keys.length - 1]!;
    const existing = parent[last];
    if (existing === undefined) {
      const t: Table = Object.create(null);
      parent[last] = t;
      this.explicit.add(t);
      return t;
    }
    if (!isTable(existing) || this.explicit.has(existing) || this.dotted.has(existing) || this.frozen.has(existing)) {
      this.fail(`table [${keys.join(".")}] is defined more than once`, at);
    }
    this.explicit.add(existing);
    return existing;
  }

  private arrayTableHeader(): Table {
    const at = this.pos;
    this.pos += 2;
    this.skipWs();
    const keys = this.key();
    this.skipWs();
    if (!this.startsWith("]]")) this.fail("expected ']]' to close the array-of-tables header");
    this.pos += 2;
    const parent = this.walk(this.root, keys.slice(0, -1), at, true);
    const last = keys[keys.length - 1]!;
    let arr = parent[last];
    if (arr === undefined) {
      arr = [];
      parent[last] = arr;
      this.tableArrays.add(arr as unknown[]);
    } else if (!Array.isArray(arr) || !this.tableArrays.has(arr)) {
      this.fail(`[[${keys.join(".")}]] conflicts with an earlier definition of that key`, at);
    }
    const t: Table = Object.create(null);
    (arr as unknown[]).push(t);
    this.explicit.add(t);
    return t;
  }

  /** Descend through `keys`, creating implicit tables; an array of tables resolves to its last element. */
  private walk(from: Table, keys: string[], at: number, header: boolean): Table {
    let t = from;
    for (const k of keys) {
      let next = t[k];
      if (next === undefined) {
        next = Object.create(null) as Table;
        t[k] = next;
        if (!header) this.dotted.add(next as Table);
      } else if (Array.isArray(next) && this.tableArrays.has(next)) {
        next = next[next.length - 1];
      } else if (!isTable(next) || this.frozen.has(next)) {
        this.fail(`key '${k}' is already defined as a value, not a table`, at);
      } else if (!header && this.explicit.has(next as Table) && !this.dotted.has(next as Table)) {
        this.fail(`dotted key '${k}' reopens a table defined by a header`, at);
      }
      t = next as Table;
    }
    return t;
  }

  private keyValue(target: Table): void {
    const at = this.pos;
    const keys = this.key();
    this.skipWs();
    if (this.peek() !== "=") this.fail(`expected '=' after key '${keys.join(".")}'`);
    this.pos++;
    this.skipWs();
    const value = this.value();
    const parent = this.walk(target, keys.slice(0, -1), at, false);
    const last = keys[keys.length - 1]!;
    if (Object.hasOwn(parent, last)) this.fail(`duplicate key '${keys.join(".")}'`, at);
    parent[last] = value;
  }

  private key(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipWs();
      const c = this.peek();
      if (c === '"') {
        if (this.startsWith('"""')) this.fail("a key cannot be a multi-line string");
        parts.push(this.basicString());
      } else if (c === "'") {
        if (this.startsWith("'''")) this.fail("a key cannot be a multi-line string");
        parts.push(this.literalString());
      } else {
        const start = this.pos;
        while (BARE_KEY.test(this.peek())) this.pos++;
        if (start === this.pos) this.fail(c === "" ? "unexpected end of input, expected a key" : `invalid character '${c}' in a key`);
        parts.push(this.src.slice(start, this.pos));
      }
      this.skipWs();
      if (this.peek() !== ".") return parts;
      this.pos++;
    }
  }

  private value(): unknown {
    const c = this.peek();
    if (c === '"') return this.startsWith('"""') ? this.multiBasicString() : this.basicString();
    if (c === "'") return this.startsWith("'''") ? this.multiLiteralString() : this.literalString();
    if (c === "[") return this.array();
    if (c === "{") return this.inlineTable();
    if (this.startsWith("true") && !BARE_KEY.test(this.peek(4))) return (this.pos += 4), true;
    if (this.startsWith("false") && !BARE_KEY.test(this.peek(5))) return (this.pos += 5), false;
    return this.scalar();
  }

  private scalar(): unknown {
    const start = this.pos;
    // Date-times may contain one space between date and time; numbers never do.
    const m = /^(\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:\d{2})?)?|\d{2}:\d{2}:\d{2}(?:\.\d+)?)/.exec(
      this.src.slice(start, start + 40),
    );
    if (m) {
      this.pos += m[1]!.length;
      return m[1]!;
    }
    while (/[0-9A-Za-z_+\-.]/.test(this.peek())) this.pos++;
    const raw = this.src.slice(start, this.pos);
    if (raw === "") this.fail(this.peek() === "" ? "unexpected end of input, expected a value" : `invalid value starting with '${this.peek()}'`);
    const n = parseNumber(raw);
    if (n === undefined) this.fail(`invalid value '${raw}'`, start);
    return n;
  }

  private escape(): string {
    const at = this.pos;
    const c = this.src[this.pos + 1];
    this.pos += 2;
    switch (c) {
      case "b": return "\b";
      case "t": return "\t";
      case "n": return "\n";
      case "f": return "\f";
      case "r": return "\r";
      case "e": return "\x1b";
      case '"': return '"';
      case "\\": return "\\";
      case "u":
      case "U": {
        const len = c === "u" ? 4 : 8;
        const hex = this.src.slice(this.pos, this.pos + len);
        if (!new RegExp(`^[0-9A-Fa-f]{${len}}$`).test(hex)) this.fail(`invalid \\${c} escape`, at);
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) this.fail(`invalid unicode scalar \\${c}${hex}`, at);
        this.pos += len;
        return String.fromCodePoint(cp);
      }
      default:
        return this.fail(`invalid escape '\\${c ?? ""}' in a string (use a '...' literal string for regexes)`, at);
    }
  }

  private basicString(): string {
    const at = this.pos;
    this.pos++;
    let out = "";
    for (;;) {
      const c = this.peek();
      if (c === "" || c === "\n" || c === "\r") this.fail("unterminated string", at);
      if (c === '"') return this.pos++, out;
      if (c === "\\") out += this.escape();
      else {
        this.checkControl(c);
        out += c;
        this.pos++;
      }
    }
  }

  private literalString(): string {
    const at = this.pos;
    this.pos++;
    const start = this.pos;
    for (;;) {
      const c = this.peek();
      if (c === "" || c === "\n" || c === "\r") this.fail("unterminated literal string", at);
      if (c === "'") break;
      this.checkControl(c);
      this.pos++;
    }
    const s = this.src.slice(start, this.pos);
    this.pos++;
    return s;
  }

  private skipFirstNewline(): void {
    if (this.startsWith("\r\n")) this.pos += 2;
    else if (this.peek() === "\n") this.pos++;
  }

  private multiBasicString(): string {
    const at = this.pos;
    this.pos += 3;
    this.skipFirstNewline();
    let out = "";
    for (;;) {
      if (this.pos >= this.src.length) this.fail('unterminated """ string', at);
      if (this.startsWith('"""')) {
        // Up to two quotes may sit right before the closing delimiter.
        let extra = 0;
        while (extra < 2 && this.src[this.pos + 3 + extra] === '"') extra++;
        out += '"'.repeat(extra);
        this.pos += 3 + extra;
        return out;
      }
      const c = this.peek();
      if (c === "\\") {
        const rest = /^\\[ \t]*\r?\n/.exec(this.src.slice(this.pos, this.pos + 200));
        if (rest) {
          this.pos += rest[0].length;
          while (/[ \t\r\n]/.test(this.peek()) && this.peek() !== "") this.pos++;
          continue;
        }
        out += this.escape();
        continue;
      }
      if (c !== "\n" && c !== "\r") this.checkControl(c);
      out += c;
      this.pos++;
    }
  }

  private multiLiteralString(): string {
    const at = this.pos;
    this.pos += 3;
    this.skipFirstNewline();
    const end = this.src.indexOf("'''", this.pos);
    if (end < 0) this.fail("unterminated ''' string", at);
    let stop = end;
    while (stop + 3 < this.src.length && this.src[stop + 3] === "'" && stop - end < 2) stop++;
    const s = this.src.slice(this.pos, stop);
    this.pos = stop + 3;
    return s;
  }

  private checkControl(c: string): void {
    const code = c.charCodeAt(0);
    if ((code < 0x20 && code !== 9) || code === 0x7f) this.fail("control character in a string (escape it)");
  }

  private array(): unknown[] {
    const at = this.pos;
    this.pos++;
    const out: unknown[] = [];
    for (;;) {
      this.skipBlank();
      if (this.peek() === "]") break;
      if (this.pos >= this.src.length) this.fail("unterminated array", at);
      out.push(this.value());
      this.skipBlank();
      if (this.peek() === ",") {
        this.pos++;
        continue;
      }
      if (this.peek() === "]") break;
      this.fail(this.pos >= this.src.length ? "unterminated array" : `expected ',' or ']' in an array, found '${this.peek()}'`);
    }
    this.pos++;
    this.frozen.add(out);
    return out;
  }

  private inlineTable(): Table {
    this.pos++;
    const t: Table = Object.create(null);
    this.skipWs();
    if (this.peek() === "}") {
      this.pos++;
      this.frozen.add(t);
      return t;
    }
    for (;;) {
      this.skipWs();
      this.keyValue(t);
      this.skipWs();
      if (this.peek() === ",") {
        this.pos++;
        continue;
      }
      if (this.peek() === "}") break;
      this.fail(`expected ',' or '}' in an inline table, found '${this.peek() || "end of line"}'`);
    }
    this.pos++;
    this.freezeDeep(t);
    return t;
  }

  private freezeDeep(t: Table): void {
    this.frozen.add(t);
    for (const v of Object.values(t)) if (isTable(v)) this.freezeDeep(v);
  }
}

function isTable(v: unknown): v is Table {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function parseNumber(raw: string): number | undefined {
  if (/^[+-]?(inf|nan)$/.test(raw)) return raw.endsWith("nan") ? NaN : raw.startsWith("-") ? -Infinity : Infinity;
  const prefixed = /^0([xob])([0-9A-Fa-f_]+)$/.exec(raw);
  if (prefixed) {
    const digits = prefixed[2]!;
    if (!underscoresOk(digits)) return undefined;
    const radix = prefixed[1] === "x" ? 16 : prefixed[1] === "o" ? 8 : 2;
    const clean = digits.replaceAll("_", "");
    const valid = radix === 16 ? /^[0-9A-Fa-f]+$/ : radix === 8 ? /^[0-7]+$/ : /^[01]+$/;
    return valid.test(clean) ? parseInt(clean, radix) : undefined;
  }
  if (/^[+-]?(0|[1-9][0-9_]*)$/.test(raw)) return underscoresOk(raw.replace(/^[+-]/, "")) ? Number(raw.replaceAll("_", "")) : undefined;
  const float = /^[+-]?(0|[1-9][0-9_]*)(\.[0-9][0-9_]*)?([eE][+-]?[0-9][0-9_]*)?$/;
  if (float.test(raw) && /[.eE]/.test(raw)) {
    const parts = raw.replace(/^[+-]/, "").split(/[.eE][+-]?/);
    return parts.every(underscoresOk) ? Number(raw.replaceAll("_", "")) : undefined;
  }
  return undefined;
}

function underscoresOk(digits: string): boolean {
  return !digits.startsWith("_") && !digits.endsWith("_") && !digits.includes("__");
}
