import { sensitivePayload } from "./exfil-relays.js";
import { messageRecords, messageSecrets } from "./exfil-messages.js";
import { formDecoded } from "./exfil-hosted.js";

/*
 * (Sixteenth round) Messages to a phone or a device through a provider's API, from the providers' own request formats:
 * SMS and chat gateways (Twilio's Messages resource, WhatsApp's Cloud API, Vonage/Nexmo, Textbelt, MessageBird, Plivo,
 * Telnyx, ClickSend) and pushes to a device (Pushbullet, notify.run, Simplepush). The number or device is whoever the
 * request names, and the account is usually the user's own: what the gateway exists for — a one-time code, a reminder,
 * an order's status, a guest's Wi-Fi password — passes. What a message to a phone may not carry is judged as the
 * fifteenth round's SMS tools judge it (exfil-messages.ts: credentials a config holds, a connection string's password,
 * a secret named as one, several doors' codes, identity numbers), plus credentials in words (a login pair, a password
 * with its value, recovery codes, a private key) — but not a Wi-Fi or guest password, and not the sender's and
 * recipient's own numbers (the request always names two).
 *
 * Linear: one host lookup, one path regex, then the bounded judgements of exfil-messages.ts and exfil-relays.ts.
 */

const GATEWAYS: Record<string, RegExp> = {
  "api.twilio.com": /^\/2010-04-01\/Accounts\/[^/]{1,40}\/Messages(?:\.json)?$/,
  "graph.facebook.com": /^\/v\d{1,2}\.\d{1,2}\/\d{6,20}\/messages$/,
  "rest.nexmo.com": /^\/sms\//,
  "api.nexmo.com": /^\/v[01](?:\.1)?\/messages/,
  "textbelt.com": /^\/text\b/,
  "rest.messagebird.com": /^\/messages\b/,
  "api.plivo.com": /^\/v1\/Account\/[^/]{1,40}\/Message\b/,
  "api.telnyx.com": /^\/v2\/messages\b/,
  "rest.clicksend.com": /^\/v3\/sms\/send/,
  "api.pushbullet.com": /^\/v2\/pushes\b/,
  "notify.run": /^\/[A-Za-z0-9]{8,40}$/,
  "api.simplepush.io": /^\/send\b/,
};

/** Whether a host (lower case) and path are a gateway's send endpoint. */
export function phoneGateway(host: string, path: string): boolean {
  const re = GATEWAYS[host];
  return re !== undefined && re.test(path);
}

/** A Wi-Fi or guest network's password, to the end of its sentence: what a host texts a guest (set aside, not excused). */
const GUEST_NETWORK = /\b(?:wi-?fi|wlan|ssid|guest\s{1,3}network|hotspot)\b[^.;\n]{0,120}/gi;

/** What a message handed to a gateway carries that it may not, or null. */
export function gatewayPayload(text: string): string | null {
  const decoded = formDecoded(text);
  for (const t of decoded !== null && decoded !== text ? [decoded, text] : [text]) {
    const what = messageSecrets(t) ?? messageRecords(t);
    if (what) return what;
    if (sensitivePayload(t.replace(GUEST_NETWORK, " ")) === "credentials") return "credentials";
  }
  return null;
}
