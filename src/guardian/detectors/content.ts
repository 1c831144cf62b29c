import { PII_GROUP } from "./pii.js";
import type { Detection, StringSite } from "./scan.js";

/*
 * The detectors' catalogues by what they find, gathered for callers outside the detectors (scan, tests): secrets by
 * format (secrets.ts), PII (pii.ts, on the pattern engine of patterns.ts), URLs on a rule's lists (urls.ts), prompt
 * injection and tool poisoning (injection.ts: scored judgements, not patterns).
 */

export { detectSecrets } from "./secrets.js";
export { detectPii, PII_TYPES } from "./pii.js";
export { compileUrlParams, detectUrls, hostMatcher, type UrlParams } from "./urls.js";
export { detectPromptInjection, detectToolPoisoning } from "./injection.js";

/**
 * Every pattern of every detector with its shortcuts (literal prefilters, `starts`, anchors) or as a plain full
 * scan. The two must find exactly the same things; a test holds them to it.
 */
export function detectAllPatterns(sites: StringSite[], shortcuts: boolean): Detection[] {
  return [PII_GROUP].flatMap((g) => g.run(sites, undefined, !shortcuts));
}
