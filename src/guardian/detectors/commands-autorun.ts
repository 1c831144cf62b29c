/*
 * (Twentieth round, "cps20") A file written where another program runs it by itself (docs/detection.md, "Twentieth
 * round: what a statement erases, whatever language hands it over"). A tool that writes a file is not running a
 * command; but a file written into a place another program executes on its own — version control's hooks, a login
 * shell's start-up files, the scheduler's and the service manager's folders, a desktop's autostart, a Mac's launch
 * agents — is a command line the user never typed, run at the next checkout, login, boot or tick. Its content is
 * judged as the command line it will be (index.ts, `detectDangerousCommand`): a download run, a reverse shell, a wipe.
 * An ordinary hook or start-up line (`npm test`, `export PATH=…`, a nightly backup) gives the judgement nothing.
 */

/** Places whose files another program runs without being asked: one regex over a path of at most 1 KB. */
const RUN_BY_ITSELF = /(?:^|[/\\])(?:\.git[/\\]hooks|\.husky|\.githooks)[/\\][\w.-]{1,64}$|^\/etc\/(?:cron\.(?:d|daily|hourly|weekly|monthly)\/[^/]{1,64}|crontab|rc\.local|profile|bash\.bashrc|profile\.d\/[^/]{1,64}|init\.d\/[^/]{1,64}|systemd\/system\/[^/]{1,64}\.(?:service|timer)|update-motd\.d\/[^/]{1,64})$|^\/var\/spool\/cron\/(?:crontabs\/)?[^/]{1,64}$|(?:^|[/\\])\.config[/\\](?:autostart[/\\][^/\\]{1,64}\.desktop|systemd[/\\]user[/\\][^/\\]{1,64}\.(?:service|timer)|fish[/\\]config\.fish)$|(?:^|[/\\])\.(?:bashrc|bash_profile|bash_login|bash_logout|profile|zshrc|zprofile|zshenv|zlogin|kshrc|xprofile|xinitrc)$|(?:^|[/\\])Library[/\\]Launch(?:Agents|Daemons)[/\\][^/\\]{1,80}\.plist$|[/\\]Start Menu[/\\]Programs[/\\]Startup[/\\][^/\\]{1,80}$/i;

/** Whether a file written at `path` is run by another program on its own (see above). */
export function runsByItself(path: string): boolean {
  return path.length <= 1024 && RUN_BY_ITSELF.test(path.trim());
}
