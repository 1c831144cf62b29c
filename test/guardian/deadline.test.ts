import { describe, expect, it } from "vitest";
import { ChainGuardian } from "../../src/guardian/chain.js";
import { EmbeddedGuardian } from "../../src/guardian/embedded.js";
import { DEFAULT_JUDGEMENT_MS, judgementDeadlineMs } from "../../src/guardian/guardian.js";
import { RemoteGuardian } from "../../src/guardian/remote.js";
import { loadRules } from "../../src/guardian/rules/load.js";

const embedded = new EmbeddedGuardian(loadRules([{ file: "t.yaml", text: "name: open\nrules: []\n" }]).ruleSet!);
const remote = (timeoutMs?: number) => new RemoteGuardian({ url: "http://127.0.0.1:9/", timeoutMs });

describe("how long a session waits for a verdict", () => {
  it("is the default for a guardian in process, and at least the default", () => {
    expect(judgementDeadlineMs(embedded)).toBe(DEFAULT_JUDGEMENT_MS);
    expect(judgementDeadlineMs(new ChainGuardian([embedded, remote(300)]))).toBe(DEFAULT_JUDGEMENT_MS);
  });

  it("follows a remote guardian's configured timeout, with a margin past it", () => {
    expect(remote().timeoutMs).toBe(2000);
    expect(judgementDeadlineMs(remote(4000))).toBe(4500);
    expect(judgementDeadlineMs(new ChainGuardian([embedded, remote(4000)]))).toBe(4500);
  });

  it("adds up the members of a chain, which are asked one after the other", () => {
    const chain = new ChainGuardian([embedded, remote(1500), new ChainGuardian([remote(2500)])]);
    expect(chain.timeoutMs).toBe(4000);
    expect(judgementDeadlineMs(chain)).toBe(4500);
    expect(new ChainGuardian([embedded]).timeoutMs).toBeUndefined();
  });
});
