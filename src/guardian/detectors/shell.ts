import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Language, Parser, type Tree } from "web-tree-sitter";

/*
 * Shell command lines as the command detector reads them: statements, pipelines, commands with their words and
 * redirections, and the scripts that run inside words (`$(…)`, backticks, `<(…)`, `>(…)`). The grammar is
 * tree-sitter-bash (docs/dependencies.md says why), run by web-tree-sitter's WebAssembly build: its loading starts
 * when this module is imported and ends a few tens of milliseconds later (`shellReady`, which every command awaits
 * before it judges anything); every parse after that is synchronous. Until then (a library caller judging at once),
 * lines are read by the tokenizer. There is no top-level await, so the package can still be `require()`d. A line the parser cannot take (too long, over its
 * operation budget) is read by a bounded tokenizer into the same shape instead; nothing here throws on any input.
 */

const require = createRequire(import.meta.url);
/** The runtime's WebAssembly (the project's type libraries do not declare it). */
const { Module } = (globalThis as unknown as { WebAssembly: { Module: new (bytes: Uint8Array) => Parameters<typeof Language.loadSync>[0] } }).WebAssembly;
let parser: Parser | undefined;
/**
 * Resolves once the grammar is loaded; rejects if it cannot be (a broken install), which every command reports before
 * it starts. A library caller that does not wait has its lines read by the tokenizer until then.
 */
export const shellReady: Promise<void> = Parser.init().then(() => {
  const p = new Parser();
  p.setLanguage(Language.loadSync(new Module(readFileSync(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm")))));
  parser = p;
  parsed.clear(); // lines the tokenizer read meanwhile are read again by the grammar
});
shellReady.catch(() => undefined); // handled by whoever awaits it; never an unhandled rejection

/** A word of a command: its text as the shell would pass it (quotes removed, escapes undone), and where it is. */
export interface Word {
  text: string;
  start: number;
  end: number;
  /** The scripts run to build this word: `$(…)`, backticks, `<(…)`, `>(…)`. */
  subs: Script[];
  /** The whole word is a process substitution (`<(…)` or `>(…)`): a command reads or writes it as a file. */
  file?: boolean;
}

export interface Redirect {
  /** The operator as written: `>`, `>>`, `<`, `<>`, `>&`, `&>`, `<<`, `<<<`, … */
  op: string;
  target: Word | null;
  /** A here-document's or here-string's text. */
  body?: string;
}

export interface Command {
  words: Word[];
  redirects: Redirect[];
  /** The scripts run by assignments before the command or on their own (`x=$(…)`, `FOO=$(…) cmd`). */
  assigned?: Script[];
  /** (Eighth round) The environment assignments before the command, as written (`NODE_TLS_REJECT_UNAUTHORIZED=0`). */
  env?: string[];
  start: number;
  end: number;
}

/** Commands joined by `|`: each one's output is the next one's input. */
export interface Pipeline {
  commands: Command[];
  start: number;
  end: number;
}

/** Statements in order (`;`, `&&`, `||`, `&`, newlines), each a pipeline of one or more commands. */
export interface Script {
  pipelines: Pipeline[];
  /** Read by the grammar (true), or by the fallback tokenizer (false). */
  parsed: boolean;
}

/** Longer command lines are read by the tokenizer: the parser's cost grows with the line. */
export const MAX_PARSED = 4096;
/** The parser reports progress every 100 operations or so; past this many reports the line goes to the tokenizer. */
const MAX_PROGRESS_REPORTS = 64;
/** Nodes copied per line: a bound on the walk whatever the tree (a line with more is read by the tokenizer). */
const MAX_NODES = 4000;
/** Words kept per line by the tokenizer. */
const MAX_TOKENS = 4000;

/**
 * A command line as statements, pipelines and commands. Never throws. `parsed` is false when the tokenizer read it;
 * a line the grammar read with errors in it is returned as the grammar read it, with `errors` set, so the caller can
 * read it with the tokenizer too.
 */
export function parseShell(text: string): Script & { errors: boolean } {
  let script = parsed.get(text);
  if (!script) {
    script = parseOnce(text);
    // The two detectors that read command lines (commands, paths) read the same ones: each is parsed once.
    if (parsed.size >= 16) parsed.delete(parsed.keys().next().value as string);
    parsed.set(text, script);
  }
  return script;
}

const parsed = new Map<string, Script & { errors: boolean }>();

function parseOnce(text: string): Script & { errors: boolean } {
  if (parser && text.length <= MAX_PARSED) {
    try {
      let reports = 0;
      const tree = parser.parse((i) => (i < text.length ? text.slice(i, i + 1024) : ""), null, { progressCallback: () => ++reports > MAX_PROGRESS_REPORTS });
      if (tree) {
        let root: Node | null;
        let errors: boolean;
        try {
          root = plain(tree);
          errors = tree.rootNode.hasError;
        } finally {
          tree.delete();
        }
        if (root) {
          const walk = new Walk(text);
          const script = walk.script(root);
          if (!walk.exhausted) return { ...script, errors };
        }
      }
    } catch {
      // a parser failure is a line for the tokenizer
    }
  }
  return { ...tokenize(text, 0, 0), errors: false };
}

/** A syntax node copied out of the parser's memory: reading nodes through the WebAssembly API one call at a time costs more than the parse. */
interface Node {
  type: string;
  isNamed: boolean;
  start: number;
  end: number;
  field: string | null;
  children: Node[];
}

/** The whole tree in one walk of a cursor, or null past MAX_NODES. */
function plain(tree: Tree): Node | null {
  const c = tree.walk();
  try {
    const make = (): Node => ({ type: c.nodeType, isNamed: c.nodeIsNamed, start: c.startIndex, end: c.endIndex, field: c.currentFieldName, children: [] });
    const root = make();
    const parents = [root];
    let count = 0;
    if (c.gotoFirstChild()) {
      outer: for (;;) {
        if (++count > MAX_NODES) return null;
        const n = make();
        (parents[parents.length - 1] as Node).children.push(n);
        if (c.gotoFirstChild()) {
          parents.push(n);
          continue;
        }
        for (;;) {
          if (c.gotoNextSibling()) break;
          if (parents.length === 1) break outer;
          c.gotoParent();
          parents.pop();
        }
      }
    }
    return root;
  } finally {
    c.delete();
  }
}

const named = (n: Node) => n.children.filter((c) => c.isNamed);

/** From the syntax tree to the shapes above, within a node budget. */
class Walk {
  private visited = 0;
  exhausted = false;
  constructor(private readonly text: string) {}

  private visit(): boolean {
    if (++this.visited > MAX_NODES * 4) this.exhausted = true;
    return !this.exhausted;
  }

  private src(n: Node): string {
    return this.text.slice(n.start, n.end);
  }

  script(node: Node): Script {
    const out: Pipeline[] = [];
    this.statements(node, out);
    return { pipelines: out, parsed: true };
  }

  /** Collects the pipelines of every statement under `node`, in order. */
  private statements(node: Node, out: Pipeline[]): void {
    if (!this.visit()) return;
    switch (node.type) {
      case "pipeline": {
        const commands: Command[] = [];
        for (const c of named(node)) this.stage(c, commands, out);
        if (commands.length > 0) out.push({ commands, start: node.start, end: node.end });
        return;
      }
      case "command":
      case "redirected_statement":
      case "declaration_command":
      case "unset_command":
      case "test_command": {
        const commands: Command[] = [];
        this.stage(node, commands, out);
        if (commands.length > 0) out.push({ commands, start: node.start, end: node.end });
        return;
      }
      case "variable_assignment":
      case "variable_assignments": {
        // `x=$(curl …)`: no command of its own, but the scripts in its value run.
        const subs: Script[] = [];
        this.substitutions(node, subs);
        if (subs.length > 0) out.push({ commands: [{ words: [], redirects: [], assigned: subs, start: node.start, end: node.end }], start: node.start, end: node.end });
        return;
      }
      default:
        for (const c of named(node)) this.statements(c, out);
    }
  }

  /** One stage of a pipeline: a command, or a compound statement whose first command stands for it. */
  private stage(node: Node, commands: Command[], out: Pipeline[]): void {
    if (!this.visit()) return;
    switch (node.type) {
      case "command":
        commands.push(this.command(node, commands, out));
        return;
      case "declaration_command":
      case "unset_command":
      case "test_command": {
        const words: Word[] = [];
        for (const c of node.children) words.push(this.word(c));
        commands.push({ words, redirects: [], start: node.start, end: node.end });
        return;
      }
      case "redirected_statement": {
        const body = node.children.find((c) => c.field === "body") ?? null;
        const redirects: Redirect[] = [];
        const after: Node[] = [];
        for (const c of named(node)) if (c !== body) this.redirect(c, redirects, after);
        const before = commands.length;
        if (body) {
          if (body.type === "command" || body.type === "redirected_statement") this.stage(body, commands, out);
          else if (body.type === "pipeline" || body.type === "list") {
            // The grammar hangs a redirection after `a | b` or `a && b` on the whole: it belongs to the last command.
            const inner: Pipeline[] = [];
            this.statements(body, inner);
            const last = inner.pop();
            out.push(...inner);
            if (last) commands.push(...last.commands);
          } else {
            const inner: Pipeline[] = [];
            this.statements(body, inner);
            const first = inner.shift();
            out.push(...inner);
            if (first) commands.push(...first.commands);
          }
        }
        const last = commands[commands.length - 1];
        if (last && commands.length > before) last.redirects.push(...redirects);
        else if (redirects.length > 0) commands.push({ words: [], redirects, start: node.start, end: node.end });
        this.continued(after, commands, out);
        return;
      }
      default: {
        // A subshell, a group, an if or a loop as a stage: its statements run; the first command stands for the stage.
        const inner: Pipeline[] = [];
        this.statements(node, inner);
        const first = inner.shift();
        out.push(...inner);
        if (first) commands.push(...first.commands);
      }
    }
  }

  /** `cat <<EOF | sh`: the grammar puts `| sh` inside the here-document's redirection; it continues the pipeline. */
  private continued(after: Node[], commands: Command[], out: Pipeline[]): void {
    for (const p of after) {
      if (p.type === "pipeline") {
        for (const c of named(p)) this.stage(c, commands, out);
      } else this.stage(p, commands, out);
    }
  }

  private command(node: Node, commands: Command[], out: Pipeline[]): Command {
    const words: Word[] = [];
    const redirects: Redirect[] = [];
    const after: Node[] = [];
    const assigned: Script[] = [];
    const env: string[] = [];
    for (const c of named(node)) {
      if (c.type === "variable_assignment") {
        // `FOO=bar cmd`: the assignment is not a word of the command, but what runs in it does.
        this.substitutions(c, assigned);
        if (env.length < 16) env.push(this.word(c).text);
        continue;
      }
      if (c.type.endsWith("_redirect")) {
        this.redirect(c, redirects, after);
        continue;
      }
      if (c.type === "command_name") {
        const name = named(c)[0];
        words.push(this.word(name ?? c));
        continue;
      }
      words.push(this.word(c));
    }
    const cmd: Command = { words, redirects, start: node.start, end: node.end };
    if (assigned.length > 0) cmd.assigned = assigned;
    if (env.length > 0) cmd.env = env;
    if (after.length > 0) {
      commands.push(cmd);
      this.continued(after, commands, out);
      return commands.pop() as Command;
    }
    return cmd;
  }

  private redirect(node: Node, out: Redirect[], after: Node[]): void {
    if (!this.visit()) return;
    let op = "";
    let target: Word | null = null;
    let body: string | undefined;
    for (const c of node.children) {
      if (!c.isNamed) {
        if (op === "") op = c.type;
        continue;
      }
      switch (c.type) {
        case "file_descriptor":
        case "heredoc_start":
        case "heredoc_end":
          break;
        case "heredoc_body":
          body = this.src(c);
          break;
        case "pipeline":
        case "command":
        case "list":
        case "redirected_statement":
          after.push(c);
          break;
        default:
          if (target === null) target = this.word(c);
      }
    }
    if (node.type === "herestring_redirect" && target) body = target.text;
    out.push(body === undefined ? { op, target } : { op, target, body });
  }

  /** A word as the shell passes it, with the scripts that run to build it. */
  word(node: Node): Word {
    const subs: Script[] = [];
    const text = this.wordText(node, subs);
    const w: Word = { text, start: node.start, end: node.end, subs };
    if (node.type === "process_substitution") w.file = true;
    return w;
  }

  private wordText(node: Node, subs: Script[]): string {
    if (!this.visit()) return "";
    switch (node.type) {
      case "word":
        return unescapeWord(this.src(node));
      case "raw_string":
        return this.src(node).slice(1, -1);
      case "ansi_c_string":
        return ansiC(this.src(node).slice(2, -1));
      case "string": {
        let s = "";
        for (const c of node.children) {
          if (!c.isNamed) continue;
          s += c.type === "string_content" ? unescapeDouble(this.src(c)) : this.wordText(c, subs);
        }
        return s;
      }
      case "concatenation": {
        let s = "";
        for (const c of node.children) s += c.isNamed ? this.wordText(c, subs) : this.src(c);
        return s;
      }
      case "command_substitution":
      case "process_substitution":
        subs.push(this.script(node));
        return this.src(node);
      default:
        this.substitutions(node, subs);
        return this.src(node);
    }
  }

  /** The scripts inside a node that is not itself a word (an expansion, an assignment's value). */
  private substitutions(node: Node, subs: Script[]): void {
    if (!this.visit()) return;
    for (const c of named(node)) {
      if (c.type === "command_substitution" || c.type === "process_substitution") subs.push(this.script(c));
      else this.substitutions(c, subs);
    }
  }
}

/** An unquoted word: a backslash keeps the next character (`c\url` is `curl`); a backslash-newline is nothing. */
function unescapeWord(s: string): string {
  if (!s.includes("\\")) return s;
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === "\\" && i + 1 < s.length) {
      i++;
      if (s[i] !== "\n") out += s[i];
    } else out += c;
  }
  return out;
}

/** Inside double quotes a backslash only escapes `$`, backquote, `"`, `\` and newline. */
function unescapeDouble(s: string): string {
  if (!s.includes("\\")) return s;
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    const n = s[i + 1];
    if (c === "\\" && n !== undefined && "$`\"\\\n".includes(n)) {
      i++;
      if (n !== "\n") out += n;
    } else out += c;
  }
  return out;
}

/** `$'…'`: the C escapes bash reads in it (`$'\x63url'` is `curl`). */
function ansiC(s: string): string {
  if (!s.includes("\\")) return s;
  const simple: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", e: "\x1b", E: "\x1b", f: "\f", v: "\v", "\\": "\\", "'": "'", '"': '"', "?": "?" };
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c !== "\\" || i + 1 >= s.length) {
      out += c;
      continue;
    }
    const n = s[i + 1] as string;
    const hex = (max: number) => {
      let j = i + 2;
      while (j < s.length && j < i + 2 + max && /[0-9a-fA-F]/.test(s[j] as string)) j++;
      return j;
    };
    if (n === "x") {
      const j = hex(2);
      out += j > i + 2 ? String.fromCharCode(parseInt(s.slice(i + 2, j), 16)) : "\\x";
      i = j - 1;
    } else if (n === "u" || n === "U") {
      const j = hex(n === "u" ? 4 : 8);
      const cp = parseInt(s.slice(i + 2, j), 16);
      out += j > i + 2 && cp <= 0x10ffff ? String.fromCodePoint(cp) : "\\" + n;
      i = j - 1;
    } else if (n >= "0" && n <= "7") {
      let j = i + 1;
      while (j < s.length && j < i + 4 && (s[j] as string) >= "0" && (s[j] as string) <= "7") j++;
      out += String.fromCharCode(parseInt(s.slice(i + 1, j), 8) & 0xff);
      i = j - 1;
    } else {
      out += simple[n] ?? "\\" + n;
      i++;
    }
  }
  return out;
}

const OPERATORS = ["&&", "||", ";;", "|&", ";", "|", "&", "\n"];

/**
 * The fallback reader: statements split at `;`, `&&`, `||`, `&` and newlines, pipelines at `|`, words at blanks, with
 * quotes removed and `$(…)`, backticks and `<(…)` read as scripts of their own (to a bounded depth). Linear in the
 * line's length; it knows no keywords, so `if`, `then` or `{` are words.
 */
export function tokenize(text: string, offset: number, depth: number): Script {
  const pipelines: Pipeline[] = [];
  let commands: Command[] = [];
  let words: Word[] = [];
  let redirects: Redirect[] = [];
  let tokens = 0;
  let pendingRedirect: string | null = null;
  let i = 0;
  const n = text.length;
  const endCommand = (at: number) => {
    if (words.length > 0 || redirects.length > 0) {
      const start = words[0]?.start ?? at;
      commands.push({ words, redirects, start, end: at + offset });
    }
    words = [];
    redirects = [];
    pendingRedirect = null;
  };
  const endPipeline = (at: number) => {
    endCommand(at);
    if (commands.length > 0) pipelines.push({ commands, start: (commands[0] as Command).start, end: at + offset });
    commands = [];
  };
  while (i < n && tokens < MAX_TOKENS) {
    const c = text[i] as string;
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "#" && (i === 0 || /\s/.test(text[i - 1] as string))) {
      while (i < n && text[i] !== "\n") i++;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (op) {
      if (op === "|" || op === "|&") endCommand(i);
      else endPipeline(i);
      i += op.length;
      continue;
    }
    const redir = /^(?:\d*(?:<<<|<<-?|<>|>>|>&|<&|&>>|&>|>\||>|<))/.exec(text.slice(i, i + 6));
    if (redir && !(text.startsWith("<(", i) || text.startsWith(">(", i))) {
      pendingRedirect = redir[0].replace(/^\d+/, "");
      i += redir[0].length;
      continue;
    }
    // A word: up to the next blank or operator outside quotes and substitutions.
    const start = i;
    let value = "";
    const subs: Script[] = [];
    let file = false;
    while (i < n) {
      const ch = text[i] as string;
      if (ch === " " || ch === "\t" || ch === "\r" || ch === "\n" || ch === ";" || ch === "|" || ch === "&" || ch === ">" || (ch === "<" && text[i + 1] !== "(")) break;
      if (ch === "\\" && i + 1 < n) {
        if (text[i + 1] !== "\n") value += text[i + 1];
        i += 2;
      } else if (ch === "'") {
        const close = text.indexOf("'", i + 1);
        const stop = close < 0 ? n : close;
        value += text.slice(i + 1, stop);
        i = stop + 1;
      } else if (ch === '"') {
        let j = i + 1;
        while (j < n && text[j] !== '"') {
          if (text[j] === "\\") j++;
          else if (text.startsWith("$(", j)) {
            const close = closing(text, j + 1);
            if (depth < 4) subs.push(tokenize(text.slice(j + 2, close), offset + j + 2, depth + 1));
            j = close;
          }
          j++;
        }
        value += unescapeDouble(text.slice(i + 1, Math.min(j, n)));
        i = j + 1;
      } else if ((ch === "$" || ch === "<" || ch === ">") && text[i + 1] === "(") {
        const close = closing(text, i + 1);
        if (depth < 4) subs.push(tokenize(text.slice(i + 2, close), offset + i + 2, depth + 1));
        if (ch !== "$" && start === i) file = true;
        value += text.slice(i, close + 1);
        i = close + 1;
      } else if (ch === "`") {
        const close = text.indexOf("`", i + 1);
        const stop = close < 0 ? n : close;
        if (depth < 4) subs.push(tokenize(text.slice(i + 1, stop), offset + i + 1, depth + 1));
        value += text.slice(i, stop + 1);
        i = stop + 1;
      } else {
        value += ch;
        i++;
      }
    }
    tokens++;
    const word: Word = { text: value, start: start + offset, end: Math.min(i, n) + offset, subs };
    if (file) word.file = true;
    if (pendingRedirect !== null) {
      redirects.push({ op: pendingRedirect, target: word });
      pendingRedirect = null;
    } else words.push(word);
  }
  endPipeline(Math.min(i, n));
  return { pipelines, parsed: false };
}

/** The index of the `)` that closes the `(` at `open` (quotes and nesting counted), or the end of the text. */
function closing(text: string, open: number): number {
  let level = 0;
  for (let j = open; j < text.length; j++) {
    const ch = text[j];
    if (ch === "\\") j++;
    else if (ch === "'") {
      const close = text.indexOf("'", j + 1);
      if (close < 0) return text.length;
      j = close;
    } else if (ch === "(") level++;
    else if (ch === ")" && --level === 0) return j;
  }
  return text.length;
}

/** A word that is an option (`-r`, `--force`; a lone `-` is stdin, not an option). */
export const isOption = (t: string): boolean => t.startsWith("-") && t !== "-";

/** The value of the option `re` names among a command's words: `--opt=value`, or the word after it. */
export function optionValue(a: readonly string[], re: RegExp): string | undefined {
  for (let i = 0; i < a.length; i++) {
    const t = a[i] as string;
    const eq = t.indexOf("=");
    if (t.startsWith("--") && eq > 0 && re.test(t.slice(0, eq))) return t.slice(eq + 1);
    if (re.test(t)) return a[i + 1];
  }
  return undefined;
}
