import { describe, expect, it } from "vitest";
import { detectMinorsAndDocuments } from "../../src/guardian/detectors/pii-minors.js";
import { selfPurchase, toGovernment } from "../../src/guardian/detectors/pii-own-use.js";
import { jsonLeaves } from "../../src/guardian/detectors/secrets-embedded.js";
import { detectPairedCredentials } from "../../src/guardian/detectors/secrets-pairs.js";
import { grantsNothing } from "../../src/guardian/detectors/secrets-public.js";
import { detectSecrets } from "../../src/guardian/detectors/secrets.js";
import { collectStrings, type Detection, type StringSite } from "../../src/guardian/detectors/scan.js";
import { expectLinear } from "../support/linear.js";

// Fifteenth round ("sec15"): secrets by where a login or a listing puts them, values that grant nothing, text
// JSON-encoded in a string; PII of other families' children, travel documents and US bank accounts in bulk, one's own
// data to a government or paying for oneself. The corpus cases are in test/fixtures/corpus/sec15*.test.yaml.

const text = (v: string): StringSite[] => [{ path: ["params", "arguments", "body"], value: v }];
const paired = (v: string) => {
  const found: Detection[] = [];
  const site = text(v)[0] as StringSite;
  detectPairedCredentials(site, found);
  return found.map((d) => v.slice(d.start, d.end));
};
const secrets = (v: string) => detectSecrets(text(v)).map((d) => v.slice(d.start, d.end));

describe("credentials a login or a listing places (secrets-pairs.ts)", () => {
  it("finds the key of an Authorization identity:key pair, not placeholders or words", () => {
    expect(paired("Authorization: ApiKey ops@ngo.example:a8f3e1c9d7b5a3f1e9c7b5a3d1f9e7c5b3a1d9f7")).toEqual(["a8f3e1c9d7b5a3f1e9c7b5a3d1f9e7c5b3a1d9f7"]);
    expect(paired("Authorization: ApiKey <username>:<api_key>")).toEqual([]);
    expect(paired("Authorization: Token username:password, then a bearer token")).toEqual([]);
  });

  it("finds a login's password after ' / ', not a choice of words", () => {
    expect(paired("VPN login: jmorales / Rk7#vLp2Qz9w — connect first.")).toEqual(["Rk7#vLp2Qz9w"]);
    expect(paired("Log in with SSO / Okta as usual, or sign in with your email / phone number")).toEqual([]);
  });

  it("finds an identity:password variable, an environment listing's secrets, a private-labelled pk_ key", () => {
    expect(paired("+ export REGISTRY_AUTH='ci-bot:Gh7$kLm2Pq9z'")).toEqual(["Gh7$kLm2Pq9z"]);
    expect(paired('export REGISTRY_AUTH="$CI_USER:$CI_PASSWORD"')).toEqual([]);
    expect(paired("APP_ENV => prod\nAPP_SECRET => 7c1e9f0a3b5d2c8e4f6a1b9d0c3e5f72\nDATABASE_USER => shop\nDATABASE_PASSWORD => Lq8!vTz3Xp\n")).toEqual(["7c1e9f0a3b5d2c8e4f6a1b9d0c3e5f72", "Lq8!vTz3Xp"]);
    expect(paired("APP_ENV  local\nAPP_KEY  ********\nDB_HOST  db.internal\nDB_PASSWORD  ********\n")).toEqual([]);
    expect(paired("Your new secret key: pk_test_51Hq8kLm2Xv9Rt4Wp7Ks1Nb6Hc3Jd0")).toEqual(["pk_test_51Hq8kLm2Xv9Rt4Wp7Ks1Nb6Hc3Jd0"]);
    expect(paired("Publishable key (public): pk_live_a91f3c7e5d2b8046e1c9f7a3d5b2e8c0")).toEqual([]);
  });

  it("finds a secret variable echoed in a log, a PSK, a key column, an eSIM code, an API client's key", () => {
    expect(paired('$ echo "Using client $X_ID / $X_SECRET"\nUsing client cff63f5ae399 / 229a4aed105292b71845f859575f0005\n')).toEqual(["229a4aed105292b71845f859575f0005"]);
    expect(paired("$ echo $API_TOKEN\n***\n")).toEqual([]);
    expect(paired("Our side: IKEv2. PSK is Vpn!If2wQPWvJW - compare.")).toEqual(["Vpn!If2wQPWvJW"]);
    expect(paired("The PSK is stored in Vault")).toEqual([]);
    expect(paired("user,password\nana,Kx8#mQ2pLz\nben,Vt4!nW9qRs")).toEqual(["Kx8#mQ2pLz", "Vt4!nW9qRs"]);
    expect(paired("key,value\nmax_conn,100\ntimeout,30")).toEqual([]);
    expect(paired("LPA:1$rsp.carrier.example$K2J4-8HQZ-LM3P-77XA")).toEqual(["K2J4-8HQZ-LM3P-77XA"]);
    expect(paired("LPA:1$rsp.carrier.example$MATCHING-ID-HERE")).toEqual([]);
    expect(paired('d = meraki.DashboardAPI("413bf0f6797ae73d5d7d7ec00ceb2023e8651480")')).toEqual(["413bf0f6797ae73d5d7d7ec00ceb2023e8651480"]);
    expect(paired('a = ApiClient("production"); b = HttpClient("https://api.example.com/v2")')).toEqual([]);
  });

  it("stays linear on adversarial text", () => {
    const run = (v: string) => paired(v.slice(0, 64 * 1024));
    expectLinear(["Authorization: ApiKey a:", "log in with a / ", "X_AUTH=a:", "A_KEY  x\n", "echo $A_SECRET\n", "PSK is ", "key,k\n", "LPA:1$a$", "x.FooApi(\"", "secret key: pk_live_"], run);
  });
});

describe("text JSON-encoded in a string (secrets-embedded.ts)", () => {
  it("reads escaped code in a JSON body and points at the raw span", () => {
    const body = JSON.stringify({ title: "401", code: 'client = Client(api_key="9c4e2a7f1b3d5e8a0c6f2b4d7e9a1c3f")\nrun()' });
    const found = detectSecrets(text(body));
    expect(found.map((d) => body.slice(d.start, d.end))).toEqual(["9c4e2a7f1b3d5e8a0c6f2b4d7e9a1c3f"]);
    expect(jsonLeaves(text('{"a":"plain text"}'))).toBeNull();
  });
});

describe("values that grant nothing (secrets-public.ts)", () => {
  const sitesOf = (args: Record<string, unknown>) => collectStrings({ method: "tools/call", params: { name: "write_file", arguments: args } });
  it("drops a browser key in a served file, not a client secret or a server file", () => {
    const served = sitesOf({ path: "static/js/search.js", content: 'window.cfg = { apiKey: "AAPK7c1e9f0a3b5d2c8e4f6a1b9d0c3e5f72Lm8Qx" };' });
    // detectSecrets applies the guard itself; without the path beside it, the key is found.
    expect(detectSecrets(served)).toEqual([]);
    const alone = served.filter((s) => s.path[2] === "content");
    expect(detectSecrets(alone).length).toBe(1);
    expect(grantsNothing(detectSecrets(alone), served)).toEqual([]);
    const secret = sitesOf({ path: "public/js/auth.js", content: 'const o = { clientSecret: "Zq8Lm2Xv9Rt4Wp7Ks1Nb6Hc3Jd0Yz5" };' });
    expect(grantsNothing(detectSecrets(secret), secret).length).toBe(1);
    const server = sitesOf({ path: "server/config.js", content: 'const cfg = { apiKey: "AAPK7c1e9f0a3b5d2c8e4f6a1b9d0c3e5f72Lm8Qx" };' });
    expect(grantsNothing(detectSecrets(server), server).length).toBe(1);
  });

  it("drops an access key id listed or reported for its age, not one with its secret", () => {
    expect(secrets("| AccessKeyId | Status |\n| AKIA5QZ7WLRXC9T2M8VD | Active |")).toEqual([]);
    expect(secrets("AKIA5QZ7WLRXC9T2M8VD (svc) last used 300 days ago; I never see the secret.")).toEqual([]);
    expect(secrets("AKIA5QZ7WLRXC9T2M8VD last rotated 400 days ago, secret q8Lm2Xv9Rt4Wp7Ks1Nb6Hc3Jd0Yz5Fg8Bh2Cn4Dm")).toContain("AKIA5QZ7WLRXC9T2M8VD");
  });

  it("drops a local default user-as-password pair, not a random one or a named host's", () => {
    expect(secrets("MONGO_URL: mongodb://farmos:farmos@mongo:27017/farmos")).toEqual([]);
    expect(secrets("postgres://Xk9q2LmP7rT:Xk9q2LmP7rT@db/x")).toEqual(["Xk9q2LmP7rT"]);
    expect(secrets("postgres://shop:shop@db.prod-shop.example:5432/shop")).toEqual(["shop"]);
  });
});

describe("PII by structure (pii-minors.ts, pii-own-use.ts)", () => {
  const types = (v: string) => [...new Set(detectMinorsAndDocuments(text(v)).map((d) => d.type))];
  it("finds other families' children with parents' phones, not one family's", () => {
    expect(types("Mia Torres (9, mom 216-555-0101); Jay Brooks (11, dad 216-555-0133)")).toEqual(["pii_bulk.minors"]);
    expect(types("Emma S. (7) allergy, mom +1 515 555 0182; Noah K. (9), dad +1 515 555 0139")).toEqual(["pii_bulk.minors"]);
    expect(types("Oliver Grant (6, mum 07700 900111) and Emma Grant (8, mum 07700 900111); Ada Grant (4, mum 07700 900111)")).toEqual([]);
  });

  it("finds travel documents beside birth dates, not locators or delivery dates", () => {
    expect(types("Anna Berg AB4471209 1985-03-12\nMarta Ruiz XDC128841 1992-07-30\nJonas Ek BC8819203 1988-01-19")).toEqual(["pii_bulk.travel_documents"]);
    expect(types("Pump Housing KX4471209 2026-12-02\nValve Seat KX5512093 2026-12-04\nGasket Set KX6631200 2026-12-09")).toEqual([]);
  });

  it("finds US bank accounts in bulk by the routing number's checksum", () => {
    expect(types("Ana Ruiz,021000021,123456789012\nTom Lee,011000015,987654321")).toEqual(["pii_bulk.bank_accounts"]);
    expect(types("Ana Ruiz,021000022,123456789012\nTom Lee,011000016,987654321")).toEqual([]);
    expect(types("Chase 021000021\nWells Fargo 121000248")).toEqual([]);
  });

  it("knows a government's address and a purchase for the writer", () => {
    expect(toGovernment(text("https://www.impots.gouv.fr/simulateur/api"))).toBe(true);
    expect(toGovernment(text("https://www.impots.gouv.fr/x https://collect.example/y"))).toBe(false);
    expect(selfPurchase("Register me (Lisa Tran) for the summit. Card 4539 …")).toBe(true);
    expect(selfPurchase("Register me and pay with the guest's card 4539 …")).toBe(false);
  });

  it("stays linear on adversarial text", () => {
    expectLinear(["Mia Torres (9, mom 216-555-0101); ", "Anna Berg AB4471209 1985-03-12\n", "Ana Ruiz,021000021,123456789012\n", "A. B; "], (v: string) => detectMinorsAndDocuments(text(v.slice(0, 64 * 1024))));
  });
});
