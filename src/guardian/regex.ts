import { RE2JS } from "re2js";

/**
 * Regular expressions written by rule authors (`matches()` in CEL, `replace` edits) run on RE2 (re2js): matching is
 * linear in the input whatever the pattern, so no rule can backtrack catastrophically. RE2 syntax is what CEL
 * specifies for `matches()`; lookaround and backreferences are not available.
 */
export interface SafeRegex {
  test(input: string): boolean;
  replaceAll(input: string, replacement: string): string;
}

/** Compiled patterns by flags, then pattern: a lookup per `matches()` call, without building a key string. */
const caches = new Map<string, Map<string, SafeRegex>>();
const MAX_CACHED = 1024;

export function safeRegex(pattern: string, flags = ""): SafeRegex {
  let cache = caches.get(flags);
  if (!cache) {
    cache = new Map();
    caches.set(flags, cache);
  }
  const hit = cache.get(pattern);
  if (hit) return hit;
  let f = 0;
  if (flags.includes("i")) f |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes("s")) f |= RE2JS.DOTALL;
  if (flags.includes("m")) f |= RE2JS.MULTILINE;
  const re = RE2JS.compile(pattern, f);
  const compiled: SafeRegex = {
    test: (input) => re.matcher(input).find(),
    // Replacement text is literal: `$` has no special meaning.
    replaceAll: (input, replacement) => re.matcher(input).replaceAll(() => replacement),
  };
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  cache.set(pattern, compiled);
  return compiled;
}

/** The reason a pattern is refused, or null. */
export function regexProblem(pattern: string, flags = ""): string | null {
  try {
    safeRegex(pattern, flags);
    return null;
  } catch (e) {
    return `invalid regular expression (RE2 syntax): ${(e as Error).message}`;
  }
}
