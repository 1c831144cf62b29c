/*
 * (Twelfth round, "exf12") A presigned or signed link a service issued (S3, GCS, Azure SAS): every parameter of its
 * query — the key id in its credential scope, a session token, the signature — is the service's own, handed to whoever
 * holds the link to download one object until it expires. A tool that returns one for the user (an export ready to
 * download) returns what it is for: a value inside such a link is not a secret assignment to redact.
 */

const LINK = /\bhttps?:\/\/[^\s"'<>`]{1,8192}/g;

function signed(q: URLSearchParams): boolean {
  return (
    (q.has("X-Amz-Signature") && q.has("X-Amz-Credential")) ||
    (q.has("X-Goog-Signature") && q.has("X-Goog-Credential")) ||
    (q.has("sig") && q.has("sv") && q.has("se")) ||
    (q.has("Signature") && q.has("Expires") && (q.has("Key-Pair-Id") || q.has("AWSAccessKeyId") || q.has("GoogleAccessId")))
  );
}

/** Whether [start, end) of `v` lies inside one signed link there. */
export function insideSignedUrl(v: string, start: number, end: number): boolean {
  if (!v.includes("Signature") && !v.includes("sig=")) return false;
  LINK.lastIndex = 0;
  for (let m, n = 0; (m = LINK.exec(v)) !== null && n < 32; n++) {
    const to = m.index + m[0].length;
    if (to < end) continue;
    if (m.index > start) return false;
    try {
      return signed(new URL(m[0]).searchParams);
    } catch {
      return false;
    }
  }
  return false;
}
