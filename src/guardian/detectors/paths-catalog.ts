/*
 * (Sixteenth round, "cps16") Credential and session files of real products, written from the products' documented
 * file locations before any case was read (docs/detection.md, "Sixteenth round: commands and paths from the public
 * catalogues"), for the products the older families did not name: cloud and SaaS CLIs (Linode, Scaleway, Vultr,
 * Exoscale, OVH, Serverless, Snyk, MongoDB Atlas, SnowSQL, Talos), package managers' user-level auth (Yarn Berry's
 * `~/.yarnrc.yml`, pip's user `pip.conf`), container tooling (Podman's runtime `auth.json`, Helm's registry logins),
 * mail clients (Outlook's data files, mutt/neomutt, mbsync, OfflineIMAP, aerc, himalaya, Emacs' `.authinfo`), remote
 * access (VNC's password file, AnyDesk's service settings), CI runners (GitHub Actions' and Azure Pipelines'
 * `.credentials`, Buildkite's agent config, TeamCity's `buildAgent.properties`), database clients (JetBrains' `c.pwd`
 * and `c.kdbx`, Robo 3T, cqlsh, clickhouse-client, InfluxDB's CLI, pgAdmin's store), editors' deployment settings
 * (Sublime SFTP's `sftp-config.json`, VS Code SFTP's `.vscode/sftp.json`, Atom's `.ftpconfig`), chat clients
 * (Telegram Desktop's `tdata`, HexChat, irssi, WeeChat's secured data, ZNC), a Windows user's registry hive
 * (`NTUSER.DAT`, where PuTTY, WinSCP and others keep sessions), Dovecot's password file, SSSD's cached credentials,
 * and process memory and every process's environment read by a glob (`/proc/[pid]/mem`, `/proc/*\/environ`).
 *
 * Each entry names the file by its product's folder and its exact name: a project's own `config.yaml`, a repo's
 * `.yarnrc.yml`, a mutt *example* in a dotfiles repo's docs, a `.vscode/settings.json`, pgAdmin's log, pass.
 * Every test is a regex on the whole path (at most 4,096 characters) with bounded quantifiers.
 */

/** The home folder of a user, in its usual written forms. */
const HOME = String.raw`(?:^~|^\$HOME|^\$\{HOME\}|^%USERPROFILE%|^/root|^/home/[^/]{1,64}|^/Users/[^/]{1,64}|^[A-Za-z]:[/\\]Users[/\\][^/\\]{1,64})[/\\]`;
const S = String.raw`[/\\]`;

const HOME_FILES = new RegExp(
  HOME +
    String.raw`(?:` +
    [
      // cloud and SaaS CLIs
      String.raw`\.config${S}linode-cli`,
      String.raw`\.linode-cli`,
      String.raw`\.config${S}scw${S}config\.ya?ml`,
      String.raw`\.vultr-cli\.ya?ml`,
      String.raw`\.config${S}exoscale${S}exoscale\.toml`,
      String.raw`\.ovh\.conf`,
      String.raw`\.serverlessrc`,
      String.raw`\.config${S}configstore${S}(?:snyk|contentful|@shopify[\w-]{0,40}|sanity)\.json`,
      String.raw`\.config${S}(?:atlascli${S}config|mongocli)\.toml`,
      String.raw`\.snowsql${S}config`,
      String.raw`\.talos${S}config`,
      // package managers' user-level auth
      String.raw`\.yarnrc\.yml`,
      String.raw`(?:\.config${S}pip${S}pip\.conf|\.pip${S}pip\.conf|AppData${S}Roaming${S}pip${S}pip\.ini)`,
      // container tooling
      String.raw`(?:\.config|Library${S}Preferences)${S}helm${S}registry${S}config\.json`,
      // mail clients
      String.raw`(?:\.muttrc|\.neomuttrc|\.mutt${S}muttrc|\.config${S}(?:mutt|neomutt)${S}(?:muttrc|neomuttrc|accounts?${S}[^/\\]{1,80}))`,
      String.raw`(?:\.mbsyncrc|\.config${S}isync${S}mbsyncrc|\.offlineimaprc|\.config${S}offlineimap${S}config|\.getmail${S}getmailrc[^/\\]{0,40})`,
      String.raw`\.config${S}(?:aerc${S}accounts\.conf|himalaya${S}config\.toml|msmtp${S}config)`,
      String.raw`\.authinfo(?:\.gpg)?`,
      // remote access
      String.raw`(?:\.vnc|\.config${S}tigervnc)${S}passwd`,
      // database clients
      String.raw`\.3T${S}robo-3t${S}[^/\\]{1,20}${S}robo3t\.json`,
      String.raw`\.cassandra${S}cqlshrc`,
      String.raw`\.clickhouse-client${S}config\.xml`,
      String.raw`\.influxdbv2${S}configs`,
      String.raw`\.pgadmin${S}pgadmin4\.db`,
      String.raw`\.dbshell`,
      // chat clients
      String.raw`\.config${S}hexchat${S}servlist\.conf`,
      String.raw`\.irssi${S}config`,
      String.raw`(?:\.weechat|\.config${S}weechat)${S}sec\.conf`,
      String.raw`\.znc${S}configs${S}znc\.conf`,
      // a Windows user's registry hive
      String.raw`NTUSER\.DAT`,
    ].join("|") +
    String.raw`)$`,
  "i",
);

const ANYWHERE = new RegExp(
  String.raw`(?:` +
    [
      // Podman's and Buildah's runtime login file
      String.raw`^/run/user/\d{1,10}/containers/auth\.json`,
      // Outlook's data files
      String.raw`${S}[^/\\]{1,200}\.(?:pst|ost)`,
      // AnyDesk's service settings (its unattended-access password)
      String.raw`${S}AnyDesk${S}(?:service|system)\.conf`,
      // CI runners
      String.raw`(?:^|${S})\.credentials(?:_rsaparams)?`,
      String.raw`(?:^|${S})buildkite-agent\.cfg`,
      String.raw`(?:^|${S})buildAgent${S}conf${S}buildAgent\.properties`,
      // JetBrains' password stores
      String.raw`${S}JetBrains${S}[^/\\]{1,60}${S}c\.(?:pwd|kdbx)`,
      // editors' deployment settings with their passwords
      String.raw`(?:^|${S})sftp-config\.json`,
      String.raw`(?:^|${S})\.vscode${S}sftp\.json`,
      String.raw`(?:^|${S})\.ftpconfig`,
      // Telegram Desktop's session folder, written with or without the space
      String.raw`Telegram ?Desktop${S}tdata(?:${S}[^/\\]{0,120})?`,
      // Dovecot's password file, SSSD's cached credentials
      String.raw`^/etc/dovecot/(?:users|passwd|[\w-]{1,40}\.passwd)`,
      String.raw`^/var/lib/sss/(?:db/cache_[^/]{1,120}\.ldb|secrets/[^/]{0,120})`,
      // (Phase 2) HPC: Slurm's accounting database password, MUNGE's shared key, Slurm's JWT key
      String.raw`(?:^|${S})(?:slurmdbd\.conf|munge\.key|jwt_hs256\.key)`,
      // (Phase 2) PowerShell's exported credentials (Export-Clixml of a PSCredential), by a credential name or folder
      String.raw`(?:^|${S})[^/\\]{0,80}(?:cred|credential|credentials|password|passwd|pwd|secret|secrets)[^/\\]{0,80}\.clixml`,
      String.raw`${S}(?:cred|creds|credentials|secrets?)${S}[^/\\]{1,120}\.clixml`,
      // (Phase 2) a deployed Rails app's keys and database logins (Canvas, Discourse, GitLab's Rails, Redmine), under a
      // server's deploy roots only: a repo's own config/database.yml is read every day
      String.raw`^/(?:var|srv|opt|u|data)/(?:[^/]{1,80}/){0,5}config/(?:database\.yml|secrets\.yml|security\.yml|master\.key|outgoing_mail\.yml|credentials(?:/[\w-]{1,40})?\.key)`,
      // (Phase 2) a deployed ASP.NET app's connection strings (web.config, appsettings.json, connectionStrings.config),
      // under IIS's web root or Program Files
      String.raw`^[A-Za-z]:[/\\](?:inetpub|Program Files(?: \(x86\))?)[/\\](?:[^/\\]{1,120}[/\\]){0,8}(?:web\.config|appsettings(?:\.[\w-]{1,20})?\.json|connectionStrings\.config)`,
      // (Phase 2) research and data-transfer CLIs' token stores (Globus)
      String.raw`${S}\.globus${S}cli${S}storage\.db`,
      String.raw`${S}\.globus(?:-native-apps)?\.cfg`,
      // process memory, and every process's environment by a glob
      String.raw`^/proc/(?:\d{1,10}|self|\$\w{1,20}|\$\{\w{1,20}\}|\$\(\w{1,20}[^/]{0,60}\))/mem`,
      String.raw`^/proc/[^/]{0,12}[*?[][^/]{0,12}/environ`,
    ].join("|") +
    String.raw`)$`,
  "i",
);

/** Examples and templates of these files are published on purpose. */
const SAMPLE = /(?:^|[-_.])(?:example|sample|template|dist|tmpl|tpl)(?:[-_.]|$)/i;

/** The kind of sensitive path these products' files are, or null. */
export function catalogKind(p: string): string | null {
  if (p.length > 4096) return null;
  const base = p.slice(Math.max(p.lastIndexOf("/"), p.lastIndexOf("\\")) + 1);
  // (An Outlook data file is named for its mailbox's address, whose domain may be `….example`: not a sample.)
  if (SAMPLE.test(base.includes("@") ? base.slice(0, base.indexOf("@")) : base)) return null;
  if (HOME_FILES.test(p) || ANYWHERE.test(p)) return /tdata|\.(?:pst|ost)$/i.test(p) ? "sensitive_path.app_session" : "sensitive_path.credential_file";
  return null;
}

/** Literals one of these paths holds (for paths.ts's prefilter), besides those it has already. */
export const CATALOG_HINTS = ["slurmdbd", "munge", "jwt_hs256", ".clixml", "database.yml", "secrets.yml", "security.yml", "master.key", "outgoing_mail", "/credentials", "web.config", "appsettings", "connectionstrings", "globus", "linode", "scw", "vultr", "exoscale", ".ovh", "serverlessrc", "configstore", "atlascli", "mongocli", "snowsql", ".talos", "yarnrc", "pip.", "helm", "mutt", "mbsync", "isync", "offlineimap", "getmail", "aerc", "himalaya", "msmtp", "authinfo", ".vnc", "tigervnc", "robo", "cqlshrc", "clickhouse", "influxdb", "pgadmin", "dbshell", "hexchat", "irssi", "weechat", "znc", "ntuser", "/containers/", ".pst", ".ost", "anydesk", ".credentials", "buildkite", "buildagent", "jetbrains", "sftp", "ftpconfig", "tdata", "dovecot", "/lib/sss/", "/proc/"];
