import { homedir } from "node:os";
import { join } from "node:path";
import { InvalidArgumentError } from "commander";

/*
 * What the command line needs before a command runs: option parsers and defaults. Kept apart from the commands so
 * that `guardwire --version` and `guardwire sessions` load only this and commander (each command loads its own code).
 */

/**
 * A commander parser for a whole number in [min, max], `what` naming it in the refusal ("a port", "bytes"): digits
 * only, so `-5`, `1.5`, `abc` and `10k` are refused rather than read as something else.
 */
export function wholeNumber(what: string, min: number, max = Number.MAX_SAFE_INTEGER): (v: string) => number {
  return (v) => {
    const n = /^\d+$/.test(v.trim()) ? Number(v.trim()) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected ${what}: a whole number ${max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`}`);
    }
    return n;
  };
}

/** `HOST:PORT` (`[::1]:7070` for IPv6) for `serve --listen`: the port a whole number from 0 to 65535. */
export function hostAndPort(v: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d+)$/.exec(v.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || !Number.isSafeInteger(port) || port > 65535) throw new InvalidArgumentError("expected HOST:PORT, e.g. 127.0.0.1:7071 or [::1]:7071 (port 0 picks a free one)");
  return { host: (m[1] ?? m[2]) as string, port };
}

/** Where tool_changed keeps tool fingerprints unless told otherwise. */
export const DEFAULT_PINS = join(homedir(), ".guardwire", "pins.json");

/** The environment variable that holds `guardwire guardian`'s caller keys. */
export const KEYS_ENV = "GUARDWIRE_GUARDIAN_KEYS";
