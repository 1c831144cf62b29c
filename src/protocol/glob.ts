/** Regex source for a literal string. */
export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** A whole-string matcher for one glob (see globSource). */
export function globRegExp(glob: string, flags = ""): RegExp {
  return new RegExp(`^(?:${globSource(glob)})$`, flags);
}

/**
 * Names, not paths: `*` matches any run of characters (including `/`, so `notifications/*` and `*` read as people
 * expect), `?` one character, `[abc]`/`[!abc]` a class, `{a,b}` alternatives. Everything else is literal.
 */
export function globSource(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === "*") out += ".*";
    else if (c === "?") out += ".";
    else if (c === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) {
        out += "\\[";
        continue;
      }
      let body = glob.slice(i + 1, close);
      if (body.startsWith("!")) body = "^" + body.slice(1);
      out += "[" + body.replace(/\\/g, "\\\\") + "]";
      i = close;
    } else if (c === "{") {
      const close = glob.indexOf("}", i);
      if (close < 0) {
        out += "\\{";
        continue;
      }
      out += "(?:" + glob.slice(i + 1, close).split(",").map(globSource).join("|") + ")";
      i = close;
    } else out += escapeRegExp(c);
  }
  return out;
}

