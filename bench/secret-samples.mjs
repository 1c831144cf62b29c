// Fake but format-valid credentials in the places they really appear, and benign look-alikes: shared by the unit
// tests (test/guardian/secrets.test.ts) and the secretlint comparison (bench/secretlint-compare.mjs). Seeded, so every
// run generates the same values; none of them is anyone's credential.
import { generateKeyPairSync } from "node:crypto";

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const UPPER_NUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const HEX = "0123456789abcdef";
const B64 = ALNUM + "+/";
const B64URL = ALNUM + "-_";

/** Fake credentials (each `secret` is the exact span a detector must report in `text`) and benign look-alikes. */
export function secretSamples(seed = 24) {
  const r = rng(seed);
  const pick = (chars, n) => Array.from({ length: n }, () => chars[Math.floor(r() * chars.length)]).join("");
  const b64url = (o) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const pem = (body, label) => `-----BEGIN ${label}-----\n${body.match(/.{1,64}/g).join("\n")}\n-----END ${label}-----`;

  const aws = "AKIA" + pick(UPPER_NUM, 16);
  const awsSecret = pick(B64, 40);
  const ghp = "ghp_" + pick(ALNUM, 36);
  const ghPat = "github_pat_11" + pick(ALNUM, 20) + "_" + pick(ALNUM, 59);
  const glpat = "glpat-" + pick(ALNUM + "-_", 20);
  const slackBot = `xoxb-${pick("0123456789", 12)}-${pick("0123456789", 13)}-${pick(ALNUM, 24)}`;
  const slackHook = `https://hooks.slack.com/services/T${pick(UPPER_NUM, 8)}/B${pick(UPPER_NUM, 10)}/${pick(ALNUM, 24)}`;
  const stripe = "sk_live_" + pick(ALNUM, 99);
  const stripeRk = "rk_live_" + pick(ALNUM, 24);
  const google = "AIza" + pick(ALNUM + "-_", 35);
  const npm = "npm_" + pick(ALNUM, 36);
  const azureKey = pick(B64, 86) + "==";
  const azureAd = pick(ALNUM, 3) + "8Q~" + pick(ALNUM + "_~.-", 34);
  const anthropic = "sk-ant-api03-" + pick(ALNUM + "-_", 93) + "AA";
  const openai = "sk-proj-" + pick(ALNUM + "-_", 74) + "T3BlbkFJ" + pick(ALNUM + "-_", 74);
  const sendgrid = "SG." + pick(ALNUM + "-_", 22) + "." + pick(ALNUM + "-_", 43);
  const hf = "hf_" + pick("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 34);
  const dop = "dop_v1_" + pick(HEX, 64);
  const shopify = "shpat_" + pick(HEX, 32);
  const pypi = "pypi-AgEIcHlwaS5vcmc" + pick(B64URL, 120);
  const vault = "hvs." + pick(ALNUM + "-_", 95);
  const twilio = "SK" + pick(HEX, 32);
  const telegram = `${pick("123456789", 1)}${pick("0123456789", 9)}:AA${pick(ALNUM + "-_", 33)}`;
  const docker = "dckr_pat_" + pick(ALNUM + "-_", 27);
  const groq = "gsk_" + pick(ALNUM, 52);
  const jwt = `${b64url({ alg: "RS256", typ: "JWT", kid: pick(HEX, 16) })}.${b64url({ sub: "user_" + pick(HEX, 12), iss: "https://auth.acme-corp.io/", aud: "api", iat: 1767225600, exp: 1767229200, scope: "read:orders write:orders" })}.${pick(B64URL, 342)}`;
  const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs1", format: "pem" }).trim();
  const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ type: "sec1", format: "pem" }).trim();
  const pkcs8 = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).trim();
  const openssh = pem("b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACB" + pick(B64, 280), "OPENSSH PRIVATE KEY");
  const saKey = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ type: "pkcs8", format: "pem" }).trim();
  const serviceAccount = JSON.stringify(
    {
      type: "service_account",
      project_id: "acme-prod-381203",
      private_key_id: pick(HEX, 40),
      private_key: saKey + "\n",
      client_email: "deployer@acme-prod-381203.iam.gserviceaccount.com",
      client_id: pick("0123456789", 21),
      token_uri: "https://oauth2.googleapis.com/token",
    },
    null,
    2,
  );
  const pgPass = pick(ALNUM, 18);
  const myPass = pick(ALNUM, 12) + "!" + pick(ALNUM, 4);
  const mongoPass = pick(ALNUM, 20);
  const redisPass = "pa55word" + pick(ALNUM, 8);
  const amqpPass = pick(ALNUM, 16);
  const same = pick(ALNUM, 11);

  const secrets = [
    { name: "AWS access key id in an env dump", type: "secrets.aws_access_key", text: `AWS_ACCESS_KEY_ID=${aws}\nAWS_DEFAULT_REGION=eu-west-1`, secret: aws },
    { name: "AWS secret key in a credentials file", type: "secrets.aws_secret_key", text: `[default]\naws_access_key_id = ${aws}\naws_secret_access_key = ${awsSecret}\n`, secret: awsSecret },
    { name: "GitHub classic token", type: "secrets.github_token", text: `git remote set-url origin https://x:${ghp}@github.com/acme/api.git`, secret: ghp },
    { name: "GitHub fine-grained token", type: "secrets.github_token", text: `export GH_TOKEN=${ghPat}`, secret: ghPat },
    { name: "GitLab personal access token", type: "secrets.gitlab_token", text: `curl --header "PRIVATE-TOKEN: ${glpat}" https://gitlab.example.com/api/v4/projects`, secret: glpat },
    { name: "Slack bot token", type: "secrets.slack_token", text: `SLACK_BOT_TOKEN="${slackBot}"`, secret: slackBot },
    { name: "Slack incoming webhook", type: "secrets.slack_webhook", text: `notify:\n  url: ${slackHook}\n`, secret: slackHook.slice("https://".length) },
    { name: "Stripe live secret key", type: "secrets.stripe_key", text: `stripe.api_key = "${stripe}"`, secret: stripe },
    { name: "Stripe restricted key", type: "secrets.stripe_key", text: `Use ${stripeRk} for the reporting job.`, secret: stripeRk },
    { name: "Google API key", type: "secrets.google_api_key", text: `gmaps = googlemaps.Client(key="${google}")`, secret: google },
    { name: "npm automation token", type: "secrets.npm_token", text: `NPM_TOKEN=${npm} npm publish`, secret: npm },
    { name: ".npmrc _authToken", type: "secrets.npm_token", text: `//registry.npmjs.org/:_authToken=${npm}\nalways-auth=true\n`, secret: npm },
    { name: "Azure storage connection string", type: "secrets.azure_storage_key", text: `DefaultEndpointsProtocol=https;AccountName=acmeprodstore;AccountKey=${azureKey};EndpointSuffix=core.windows.net`, secret: azureKey },
    { name: "Azure AD client secret", type: "secrets.azure_ad_client_secret", text: `"clientSecret": "${azureAd}"`, secret: azureAd },
    { name: "Anthropic key", type: "secrets.anthropic_key", text: `ANTHROPIC_API_KEY=${anthropic}`, secret: anthropic },
    { name: "OpenAI project key", type: "secrets.openai_key", text: `client = OpenAI(api_key="${openai}")`, secret: openai },
    { name: "SendGrid key", type: "secrets.sendgrid_key", text: `SENDGRID_API_KEY='${sendgrid}'`, secret: sendgrid },
    { name: "Hugging Face token", type: "secrets.huggingface_token", text: `huggingface-cli login --token ${hf}`, secret: hf },
    { name: "DigitalOcean token", type: "secrets.digitalocean_token", text: `doctl auth init -t ${dop}`, secret: dop },
    { name: "Shopify admin token", type: "secrets.shopify_token", text: `X-Shopify-Access-Token: ${shopify}`, secret: shopify },
    { name: "PyPI upload token", type: "secrets.pypi_token", text: `[pypi]\n  username = __token__\n  password = ${pypi}\n`, secret: pypi },
    { name: "Vault service token", type: "secrets.vault_token", text: `VAULT_TOKEN=${vault} vault kv get secret/app`, secret: vault },
    { name: "Twilio API key", type: "secrets.twilio_key", text: `twilio api:core:messages:create --api-key ${twilio}`, secret: twilio },
    { name: "Telegram bot token", type: "secrets.telegram_bot_token", text: `https://api.telegram.org/bot${telegram}/sendMessage`, secret: telegram },
    { name: "Docker Hub token", type: "secrets.docker_token", text: `echo ${docker} | docker login -u acme --password-stdin`, secret: docker },
    { name: "Groq key", type: "secrets.groq_key", text: `GROQ_API_KEY=${groq}`, secret: groq },
    { name: "JWT in an Authorization header", type: "secrets.jwt", text: `Authorization: Bearer ${jwt}`, secret: jwt },
    { name: "RSA private key (PKCS#1)", type: "secrets.private_key", text: `Here is the deploy key:\n${rsa}\n`, secret: rsa },
    { name: "EC private key (SEC1)", type: "secrets.private_key", text: `${ec}\n`, secret: ec },
    { name: "Ed25519 private key (PKCS#8)", type: "secrets.private_key", text: `key: |\n${pkcs8}`, secret: pkcs8 },
    { name: "OpenSSH private key", type: "secrets.private_key", text: `$ cat ~/.ssh/id_ed25519\n${openssh}\n`, secret: openssh },
    { name: "Google service-account JSON", type: "secrets.private_key", text: serviceAccount, secret: JSON.stringify(saKey).slice(1, -1) },
    { name: "postgres URL", type: "secrets.connection_string", text: `DATABASE_URL=postgresql://app_user:${pgPass}@db.internal.acme.io:5432/orders?sslmode=require`, secret: pgPass },
    { name: "mysql URL", type: "secrets.connection_string", text: `mysql://admin:${encodeURIComponent(myPass)}@10.0.3.7:3306/shop`, secret: encodeURIComponent(myPass) },
    { name: "mongodb+srv URL", type: "secrets.connection_string", text: `MONGO_URI="mongodb+srv://svc-orders:${mongoPass}@cluster0.x7kqz.mongodb.net/orders?retryWrites=true"`, secret: mongoPass },
    { name: "redis URL with an empty user", type: "secrets.connection_string", text: `REDIS_URL=redis://:${redisPass}@cache:6379/0`, secret: redisPass },
    { name: "amqp URL", type: "secrets.connection_string", text: `broker_url = "amqp://celery:${amqpPass}@rabbit.internal:5672/prod"`, secret: amqpPass },
    { name: "postgres URL whose password equals its user", type: "secrets.connection_string", text: `postgres://${same}:${same}@db/x`, secret: same },
  ];

  const benign = [
    // A browser key in the loader it ships in is public by design (restricted by referrer): sixth round.
    { name: "Maps JavaScript loader's browser key", text: `<script src="https://maps.googleapis.com/maps/api/js?key=${google}&callback=initMap"></script>` },
    { name: "Stripe publishable key", text: `const stripe = Stripe("pk_live_${pick(ALNUM, 99)}");` },
    { name: "Mapbox public token", text: `mapboxgl.accessToken = 'pk.eyJ1IjoiYWNtZSIsImEiOiJ${pick(ALNUM, 20)}In0.${pick(B64URL, 22)}';` },
    { name: "jwt.io's example token", text: "Paste eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c into the debugger." },
    { name: "AWS's documented example keys", text: "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" },
    { name: "Stripe's documented test key", text: "curl https://api.stripe.com/v1/charges -u sk_test_4eC39HqLyjWDarjtT1zdp7dc:" },
    { name: "Azure storage emulator connection string", text: "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;" },
    { name: "a token placeholder", text: "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx" },
    { name: ".npmrc reading the token from the environment", text: "//registry.npmjs.org/:_authToken=${NPM_TOKEN}\n" },
    { name: "UUIDs", text: `request ${crypto.randomUUID()} correlated with ${crypto.randomUUID()}` },
    { name: "git hashes and digests", text: `commit ${pick(HEX, 40)}\nsha256:${pick(HEX, 64)}` },
    { name: "package-lock integrity", text: `"integrity": "sha512-${pick(B64, 86)}=="` },
    { name: "S3 presigned URL", text: `Your export is ready: https://acme-exports.s3.eu-west-1.amazonaws.com/reports/q3.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${aws}%2F20260101%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=20260101T120000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=${pick(HEX, 64)}` },
    { name: "S3 legacy presigned URL", text: `https://acme-exports.s3.amazonaws.com/q3.csv?AWSAccessKeyId=${aws}&Expires=1767229200&Signature=${encodeURIComponent(pick(B64, 27) + "=")}` },
    { name: "GCS signed URL", text: `https://storage.googleapis.com/acme-exports/q3.csv?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Credential=exporter%40acme-prod.iam.gserviceaccount.com%2F20260101%2Fauto%2Fstorage%2Fgoog4_request&X-Goog-Date=20260101T120000Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature=${pick(HEX, 512)}` },
    { name: "default compose credentials", text: "services:\n  api:\n    environment:\n      DATABASE_URL: postgres://postgres:postgres@db:5432/app\n      BROKER_URL: amqp://guest:guest@rabbitmq:5672/\n      MYSQL_URL: mysql://root:root@mysql:3306/app\n" },
    { name: "placeholder connection string", text: "postgres://user:password@localhost:5432/mydb and mongodb://<username>:<password>@host" },
    { name: "an SSH public key", text: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${pick(B64, 43)} dev@laptop` },
    { name: "a base64 PNG", text: `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA${pick(B64, 400)}` },
    { name: "a PEM public key and a certificate", text: `-----BEGIN PUBLIC KEY-----\n${pick(B64, 64)}\n${pick(B64, 64)}\n-----END PUBLIC KEY-----\n-----BEGIN CERTIFICATE-----\nMII${pick(B64, 61)}\n-----END CERTIFICATE-----` },
    { name: "a private key header in documentation", text: "The file starts with -----BEGIN OPENSSH PRIVATE KEY----- followed by base64 and ends with the END line." },
    { name: "CSS classes and words with token-like prefixes", text: "<div class=\"sk-spinner sk-fading-circle\"> task-runner disk-usage key-value SKU-2231 the npm_config_cache" },
    { name: "a password-reset link", text: `Reset your password: https://app.acme.io/reset?token=${pick(ALNUM, 32)} (valid 1 hour)` },
  ];
  // Issue 24, fifth round: more of gitleaks' prefixed formats, a credential by its Authorization scheme, and a key
  // whose lines a diff or a quote marks. Picked after the rest, so the values above stay as they were.
  const dyna = `dt0c01.${pick(UPPER_NUM, 24)}.${pick(UPPER_NUM, 64)}`;
  const tfc = `${pick(ALNUM, 14)}.atlasv1.${pick(ALNUM + "-_", 67)}`;
  const airtable = `pat${pick(ALNUM, 14)}.${pick(HEX, 64)}`;
  const doppler = `dp.st.prd.${pick(ALNUM, 40)}`;
  const databricks = `dapi${pick(HEX, 32)}`;
  const mailchimp = `${pick(HEX, 32)}-us14`;
  const vaultLong = `hvs.CAESI${pick(B64URL, 70)}`;
  const ssws = `00${pick(ALNUM + "-_", 40)}`;
  const apiToken = pick(ALNUM, 40);
  const basic = Buffer.from(`svc-reporting:${pick(ALNUM, 14)}`).toString("base64");
  const prefect = `pnu_${pick(ALNUM, 36)}`;
  const sshBody = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZWQyNTUxOQAAACB" + pick(B64, 200);
  const sshLines = sshBody.match(/.{1,70}/g);
  const quoted = ["-----BEGIN OPENSSH PRIVATE KEY-----", ...sshLines, "-----END OPENSSH PRIVATE KEY-----"].map((l) => "> " + l).join("\n");
  const removed = ["-----BEGIN OPENSSH PRIVATE KEY-----", ...sshLines, "-----END OPENSSH PRIVATE KEY-----"].map((l) => "-" + l).join("\n");
  secrets.push(
    { name: "Dynatrace token in a header value", type: "secrets.dynatrace_token", text: `{"Authorization": "Api-Token ${dyna}"}`, secret: dyna },
    { name: "Terraform Cloud team token in prose", type: "secrets.terraform_cloud_token", text: `The workspace token is ${tfc}, keep it safe.`, secret: tfc },
    { name: "Airtable personal access token", type: "secrets.airtable_token", text: `AIRTABLE_PAT=${airtable}`, secret: airtable },
    { name: "Doppler service token", type: "secrets.doppler_token", text: `doppler run --token ${doppler} -- npm start`, secret: doppler },
    { name: "Databricks token", type: "secrets.databricks_token", text: `databricks configure --token <<< ${databricks}`, secret: databricks },
    { name: "Mailchimp key with its data centre", type: "secrets.mailchimp_key", text: `client.setConfig({ apiKey: "${mailchimp}", server: "us14" })`, secret: mailchimp },
    { name: "Vault service token shorter than gitleaks' 90", type: "secrets.vault_token", text: `export VAULT_TOKEN=${vaultLong}`, secret: vaultLong },
    { name: "Prefect Cloud key", type: "secrets.prefect_token", text: `prefect cloud login -k ${prefect}`, secret: prefect },
    { name: "Okta-style SSWS header in a log line", type: "secrets.authorization_credential", text: `GET /api/v1/groups 200 (Authorization: SSWS ${ssws})`, secret: ssws },
    { name: "an unknown provider's Token scheme in a curl header", type: "secrets.authorization_credential", text: `curl -H "Authorization: Token ${apiToken}" https://api.metrics.example/v1/series`, secret: apiToken },
    { name: "Basic credentials (user:password in base64)", type: "secrets.authorization_credential", text: `"headers": {"Authorization": "Basic ${basic}"}`, secret: basic },
    { name: "an OpenSSH key quoted in an e-mail reply", type: "secrets.private_key", text: `On Mon, ops wrote:\n${quoted}\n`, secret: quoted.slice(2) },
    { name: "an OpenSSH key a diff removes", type: "secrets.private_key", text: `--- a/deploy/key\n+++ /dev/null\n@@ -1,5 +0,0 @@\n${removed}\n`, secret: removed.slice(1) },
  );
  benign.push(
    { name: "Authorization headers with references and placeholders", text: "curl -H 'Authorization: Basic $(printf %s \"$USER:$PASS\" | base64)' -H \"Authorization: Token ${API_TOKEN}\" -H 'Authorization: SSWS {{okta_token}}'" },
    { name: "Basic with a value that is not user:password", text: "Authorization: Basic dGhpcyBpcyBub3QgYSBwYWlyIGF0IGFsbA==" },
    { name: "prose with scheme-like words", text: "Key takeaways from the session: Token rotation matters. The pattern patternmatching123 is fine; see docs at path/to/patfile." },
    { name: "hex digests with a -us suffix in a build id", text: `build ${pick(HEX, 40)}-useast and cache key ${pick(HEX, 32)}-usr` },
  );
  return { secrets, benign };
}
