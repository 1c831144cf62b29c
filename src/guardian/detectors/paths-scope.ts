/*
 * (Twelfth round, "cps12") Families of sensitive paths read by what the file holds (docs/detection.md, "Twelfth round:
 * what a statement's scope destroys, commands other programs run"). Called by paths.ts's sensitiveKind after the
 * older families, on a path already in its judged form:
 *
 * - **AI clients' MCP configurations in the home folder**: the global `mcp.json` of Cursor, Windsurf's
 *   `mcp_config.json`, Cline's `cline_mcp_settings.json`, Claude Desktop's `claude_desktop_config.json`, VS Code's
 *   user `mcp.json`, `~/.claude.json` — every server's API keys sit in their `env` blocks. A project's own
 *   `.cursor/mcp.json` or `.vscode/mcp.json` (a relative path in the working tree) passes;
 * - **cookie jars by their format**: Apple's `*.binarycookies`, wherever the app keeps it (Safari's container,
 *   `~/Library/Cookies`, any app's);
 * - **local servers' token and credential stores**: Jupyter's runtime files (`jpserver-*.json`, `nbserver-*.json`,
 *   `kernel-*.json`: the server's token, the kernel's signing key), Home Assistant's `.storage/auth` and
 *   `auth_provider.homeassistant`, Node-RED's `flows*_cred.json` and `.config.runtime.json` (its credentialSecret),
 *   n8n's `~/.n8n/config` (its encryption key), Ignition's `data/db/config.idb`;
 * - **messages' local histories**: macOS Messages' `chat.db`, WhatsApp's `ChatStorage.sqlite`;
 * - **CLIs that keep their login in a file of their own folder of the home**: Alibaba Cloud's `~/.aliyun/config.json`,
 *   Tencent Cloud's `~/.tccli/*.credential`, IBM Cloud's `~/.bluemix/config.json`, Particle's
 *   `~/.particle/particle.config.json`, clasp's `~/.clasprc.json`, firebase-tools' `configstore/firebase-tools.json`,
 *   Netlify's `netlify/config.json`, Expo's `~/.expo/state.json`.
 *
 * - **a private key by its name outside the working tree**: `privKey.key`, `private.key`, `device-private-key.pem`,
 *   `client_priv.key` at an absolute or home path (an IoT core's, an appliance's, another service's key). A project's
 *   own relative `certs/private.key` (local TLS for development), test and fixture folders, and public halves pass.
 *
 * Every test is a regex anchored on the last segments, over a path of at most 4 KB.
 */

const HOME = String.raw`(?:~|\$\{?HOME\}?|%USERPROFILE%|%APPDATA%|[/\\]home[/\\][^/\\]{1,64}|[/\\]Users[/\\][^/\\]{1,64}|[/\\]root|[A-Za-z]:[/\\]Users[/\\][^/\\]{1,64})`;
const MCP_CONFIG = new RegExp(
  String.raw`^${HOME}[/\\](?:\.cursor[/\\]mcp\.json|\.codeium[/\\](?:windsurf[/\\])?mcp_config\.json|\.claude\.json|\.claude[/\\](?:settings(?:\.local)?\.json|mcp\.json)|\.gemini[/\\]settings\.json|\.continue[/\\]config\.(?:json|ya?ml)|.{0,200}[/\\](?:Claude[/\\]claude_desktop_config\.json|(?:Code|Code - Insiders|Cursor|Windsurf|VSCodium)[/\\]User[/\\](?:mcp\.json|globalStorage[/\\][^/\\]{1,120}[/\\]settings[/\\]cline_mcp_settings\.json)))$`,
  "i",
);
const COOKIE_JAR = /(?:^|[/\\])[^/\\]{0,120}\.binarycookies$/i;
const SERVER_STORE = /(?:^|[/\\])jupyter[/\\]runtime[/\\](?:jpserver|nbserver|kernel)-[\w-]{1,80}\.json$|(?:^|[/\\])\.storage[/\\](?:auth|auth_provider\.homeassistant)$|(?:^|[/\\])flows(?:_[\w.-]{1,64})?_cred\.json$|(?:^|[/\\])\.node-red[/\\]\.config\.runtime\.json$|(?:^|[/\\])\.n8n[/\\]config$|(?:^|[/\\])data[/\\]db[/\\]config\.idb$/i;
const MESSAGES = /(?:^|[/\\])Library[/\\]Messages[/\\]chat\.db(?:-wal|-shm)?$|(?:^|[/\\])ChatStorage\.sqlite$/i;
const CLI_LOGIN = new RegExp(
  String.raw`^${HOME}[/\\](?:\.aliyun[/\\]config\.json|\.tccli[/\\][^/\\]{1,64}\.credential|\.bluemix[/\\]config\.json|\.particle[/\\]particle\.config\.json|\.clasprc\.json|\.config[/\\]configstore[/\\]firebase-tools\.json|\.netlify[/\\]config\.json|(?:Library[/\\]Preferences|\.config)[/\\]netlify[/\\]config\.json|\.expo[/\\]state\.json)$`,
  "i",
);

const PRIVATE_KEY_NAME = /^(?:[\w.-]{0,64}[-_.])?priv(?:ate)?(?:[-_.]?key)?(?:[-_.][\w-]{1,64})?\.(?:key|pem|der)$/i;
const OUTSIDE_TREE = /^(?:\/|~|\$\{?HOME\}?|[A-Za-z]:[/\\]|%[A-Z]{2,16}%)/;
const TEST_TREE = /(?:^|[/\\])(?:tests?|testdata|test-data|fixtures?|spec|specs|examples?|samples?|mocks?|__tests__)(?:[/\\])/i;

/** The kind of sensitive path one of these families finds, or null. */
export function scopeKind(p: string): string | null {
  if (p.length > 4096) return null;
  const base = p.slice(Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")) + 1);
  if (PRIVATE_KEY_NAME.test(base) && !/pub(?:lic)?/i.test(base) && OUTSIDE_TREE.test(p) && !TEST_TREE.test(p)) return "sensitive_path.credential_file";
  if (MCP_CONFIG.test(p) || CLI_LOGIN.test(p)) return "sensitive_path.credential_file";
  if (COOKIE_JAR.test(p) || MESSAGES.test(p)) return "sensitive_path.app_session";
  if (SERVER_STORE.test(p)) return "sensitive_path.credential_file";
  return null;
}

/** Literals one of these paths holds (for paths.ts's prefilter), besides those it has already. */
export const SCOPE_HINTS = ["mcp", "claude", ".gemini", ".continue", "binarycookies", "jupyter", ".storage", "_cred", ".node-red", ".n8n", "config.idb", "chat.db", "chatstorage", ".aliyun", ".tccli", ".bluemix", ".particle", ".clasprc", "configstore", "netlify", ".expo"];
