/*
 * Ciphertext under a secret's name (issue 24, ninth round): a file of encrypted secrets names every value for the
 * secret it encrypts (`db_password: ENC[…]`), and the value is no secret — decrypting it takes a key that is not in the
 * text. Recognised by each tool's published form, judged where the value stands in its string:
 *
 * - SOPS: `ENC[AES256_GCM,data:…,iv:…,tag:…,type:…]` (the whole shape, each part bounded);
 * - Bitnami sealed secrets: an `encryptedData` value (RSA-OAEP, base64 starting `Ag`, hundreds of characters) in a
 *   document that says it is a SealedSecret or has `encryptedData` within the 4,000 characters before;
 * - HashiCorp Vault transit: `vault:v<n>:<base64>`;
 * - dotenvx: `encrypted:<base64>`.
 *
 * A password that merely starts like one of them (`ENC[AES256_GCM_…]`), or a long `Ag…` value outside a sealed secret,
 * is still read as a secret. Linear: one sticky regex at the value, or a bounded look-back.
 */

const SOPS_VALUE = /ENC\[AES256_GCM,data:[A-Za-z0-9+/=]{0,16384},iv:[A-Za-z0-9+/=]{8,128},tag:[A-Za-z0-9+/=]{8,128},type:[a-z]{2,12}\]/y;
const SEALED = /\bkind:[ \t]{0,4}SealedSecret\b|\bencryptedData["']?[ \t]{0,4}:/;
const TRANSIT = /vault:v\d{1,4}:[A-Za-z0-9+/]{16,4096}={0,2}(?![A-Za-z0-9+/=])/y;
const DOTENVX = /encrypted:[A-Za-z0-9+/]{20,4096}={0,2}(?![A-Za-z0-9+/=])/y;

/** Whether the value starting at `start` in `v` is ciphertext of a secrets tool (above). */
export function isCiphertext(v: string, start: number): boolean {
  const c = v.charCodeAt(start);
  let re: RegExp | null = null;
  if (c === 69 /* E */) re = SOPS_VALUE;
  else if (c === 118 /* v */) re = TRANSIT;
  else if (c === 101 /* e */) re = DOTENVX;
  if (re !== null) {
    re.lastIndex = start;
    return re.test(v);
  }
  return c === 65 /* A */ && v.charCodeAt(start + 1) === 103 /* g */ && /^[A-Za-z0-9+/]{300}/.test(v.slice(start, start + 300)) && SEALED.test(v.slice(Math.max(0, start - 4000), start));
}
