import { readFileSync } from "node:fs";

/** The admin file a guardwire writes once its admin listener is up. */
export async function waitForAdminFile(file: string, timeoutMs = 20_000): Promise<{ url: string; token: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return JSON.parse(readFileSync(file, "utf8")) as { url: string; token: string };
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`no admin file at ${file}: ${(e as Error).message}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
