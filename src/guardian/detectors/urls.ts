import { escapeRegExp, globRegExp } from "../../protocol/glob.js";
import { findAll, type Detection, type StringSite } from "./scan.js";

/* The `url` detector: URLs whose host a rule's lists deny, or leave off their allow list. */

export interface UrlParams {
  allow?: string[];
  deny?: string[];
}

const URL_RE = /\bhttps?:\/\/[^\s"'<>`)\]]+/gi;

/**
 * A value as `application/x-www-form-urlencoded` writes it (a query's or a form body's): `+` a space, `%XX` its byte;
 * with a broken escape, the text with its spaces only.
 */
export function formValue(v: string): string {
  const plus = v.includes("+") ? v.replace(/\+/g, " ") : v;
  if (!plus.includes("%")) return plus;
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus;
  }
}

/** A host glob: `*.example.com` is the apex and every subdomain; any other glob is an ordinary one. */
export function hostMatcher(pattern: string): RegExp {
  const p = pattern.toLowerCase();
  return p.startsWith("*.") ? new RegExp(`^(?:[a-z0-9-]+\\.)*${escapeRegExp(p.slice(2))}$`) : globRegExp(p);
}

export function compileUrlParams(params: UrlParams): { allow: RegExp[] | null; deny: RegExp[] } {
  return { allow: params.allow ? params.allow.map(hostMatcher) : null, deny: (params.deny ?? []).map(hostMatcher) };
}

/** URLs whose host is on the deny list, or off the allow list when there is one. */
export function detectUrls(sites: StringSite[], lists: { allow: RegExp[] | null; deny: RegExp[] }): Detection[] {
  const out: Detection[] = [];
  for (const d of findAll(sites.filter((s) => s.value.includes("://")), URL_RE, "url")) {
    const site = sites.find((s) => s.path === d.path);
    const raw = site?.value.slice(d.start, d.end) ?? "";
    let host: string;
    try {
      host = new URL(raw).hostname.toLowerCase().replace(/^\[|\]$/g, "");
    } catch {
      continue;
    }
    if (lists.deny.some((re) => re.test(host))) out.push({ ...d, type: "url.denied" });
    else if (lists.allow && !lists.allow.some((re) => re.test(host))) out.push({ ...d, type: "url.not_allowed" });
  }
  return out;
}
