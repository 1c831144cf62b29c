/*
 * (Twenty-third round, "sec23") A loop that sends without end and without pause (docs/detection.md, "Twenty-third
 * round"). Read as text on command sites only (commands.ts), gated on a loop's own rare words:
 *
 * - **a flood** (`.flood`): a loop that never ends by itself (`while true`, `while :`, `until false`, `for ((;;))`,
 *   `for(;;)`, `while(1)`, `while True:`) whose body sends to something outside the process — a URL, an address, a
 *   device node, a bus interface, a socket's or a serial port's `send`/`write`, or a program whose work is to send
 *   (`curl`, `nc`, `ping`, a bus or broker publisher) — and neither waits (`sleep`, `read`, `wait`, a blocking watcher)
 *   nor leaves (`break`, `exit`, `return`). A legitimate tool repeated as fast as the machine goes is a denial of
 *   service of what it reaches: a server, a broker, a vehicle's or a plant's bus, a phone line. Also the senders' own
 *   flood options (`--flood`, `ping -f`). A bounded loop (`for i in 1..10`), a loop over input (`while read`), a poll
 *   with a pause, a listener (`nc -l`) and a retry that stops on success pass.
 */

import type { OpenedFinding } from "./commands-opened.js";

/** A loop with no end of its own; the body follows the match. */
const ENDLESS = /\bwhile\s{1,4}(?:true|:|\[\s{1,4}1\s{1,4}\]|\[\[\s{1,4}1\s{1,4}\]\]|\/bin\/true)\s{0,4}(?:;|\n|do\b)|\bwhile\s{0,4}\(\s{0,4}(?:true|1|\$true)\s{0,4}\)|\bwhile\s{1,4}(?:true|1)\s{0,4}:|\buntil\s{1,4}(?:false|\/bin\/false)\s{0,4}(?:;|\n|do\b)|\bfor\s{0,4}\(\(?\s{0,4};\s{0,4};\s{0,4}\)?\)|\bloop\s{0,4}\{/g;
/** Something the body reaches outside the process: a URL, an IPv4 address, a device node, a bus interface. */
const DESTINATION = /:\/\/|\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b|\/dev\/(?:tty|can|usb|serial|ttyS|ttyUSB|ttyACM)|\b(?:v|sl)?can\d{1,2}\b/;
/** A send in code, or a program whose work is to send. */
const SENDS = /\.(?:send(?:to|all)?|publish|emit|post|put|write)\s{0,2}\(|\b(?:requests|httpx|axios|fetch|urlopen|invoke-webrequest|invoke-restmethod|iwr|irm)\b|(?:^|[\s;&|({])(?:curl|wget|nc|ncat|netcat|socat|ping|hping3|nping|telnet|cansend|cangen|isotpsend|mosquitto_pub|snmpset|mbpoll|modbus\w{0,12}|redis-cli|kafkacat|kcat|http|ab|siege|sendmail|mail|twilio|aws\s{1,4}sns)(?=\s)/;
/** A pause or a way out in the body: the loop is paced or ends. */
const PACED = /\b(?:sleep|usleep|nanosleep|wait|read|inotifywait|timeout|delay|start-sleep|settimeout|setinterval|break|exit|return|select|poll|time\.sleep|sleep_for|thread\.sleep)\b|(?:^|\s)-l(?:\s|$)|\bcandump\b/;
/** A sender's own flood option. */
const FLOOD_OPTION = /(?:^|[\s;&|])(?:[\w./-]{0,40}\s)?--flood\b|\bping\s{1,4}(?:-[a-z]{1,4}\s{1,4}){0,3}-[a-z]{0,3}f[a-z]{0,3}\s/;

/** How much of a loop's body is read. */
const BODY = 400;

/** A loop that sends without end or pause, or a flood option, or null. `lower` is the command text in lower case. */
export function endlessSend(lower: string): OpenedFinding | null {
  if (lower.includes("flood") || lower.includes("ping")) {
    const f = FLOOD_OPTION.exec(lower);
    if (f) return { type: "dangerous_command.flood", detail: "sends with a flood option: a denial of service of what it reaches", start: f.index, end: f.index + f[0].length };
  }
  if (!(lower.includes("while") || lower.includes("until") || lower.includes("for(") || lower.includes("for (") || lower.includes("loop"))) return null;
  ENDLESS.lastIndex = 0;
  for (let m, n = 0; (m = ENDLESS.exec(lower)) !== null && n < 8; n++) {
    const at = m.index + m[0].length;
    const body = bodyOf(lower, at);
    if (PACED.test(body)) continue;
    if (!SENDS.test(body) && !DESTINATION.test(body)) continue;
    return { type: "dangerous_command.flood", detail: "sends in a loop without end or pause: a denial of service of what it reaches", start: m.index, end: at + body.length };
  }
  return null;
}

/** The loop's body: up to its shell `done`, or a bounded window. */
function bodyOf(lower: string, at: number): string {
  const window = lower.slice(at, at + BODY);
  const done = /(?:^|[\s;&])done\b/.exec(window);
  return done ? window.slice(0, done.index) : window;
}
