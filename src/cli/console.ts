import { spawn } from "node:child_process";
import { GuardwireError } from "../errors.js";
import { locate } from "./admin-client.js";

export interface ConsoleOptions {
  admin?: string;
  token?: string;
  open?: boolean;
}

/**
 * `guardwire console [--open]`: the browser console's URL for the running guardwire's admin API, with the token in
 * the fragment (never sent to a server; the page moves it to sessionStorage and clears the address bar).
 */
export function runConsole(o: ConsoleOptions, out: NodeJS.WritableStream, err: NodeJS.WritableStream): number {
  const { url, token } = locate(o);
  if (url.startsWith("unix:") || !token) {
    throw new GuardwireError("USAGE", `the console is a web page: it needs the admin API on a TCP address with a token (this one is ${url}); start guardwire with --admin 127.0.0.1:PORT`);
  }
  const link = `${new URL("/console/", url).href}#token=${encodeURIComponent(token)}`;
  out.write(link + "\n");
  if (o.open) {
    const [cmd, ...args] = process.platform === "darwin" ? ["open"] : process.platform === "win32" ? ["cmd", "/c", "start", '""'] : ["xdg-open"];
    const child = spawn(cmd as string, [...args, link], { stdio: "ignore", detached: true });
    child.on("error", (e) => err.write(`guardwire: cannot open a browser (${(e as NodeJS.ErrnoException).code ?? e.message}): open the link above yourself\n`));
    child.unref();
  }
  return 0;
}
