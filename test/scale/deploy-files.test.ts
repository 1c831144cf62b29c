import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { parse, parseAllDocuments } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { readAndLoadRules } from "../../src/cli/rules.js";
import { CLI, ROOT, tempDir } from "../helpers.js";
import { SHIPPED_HAPROXY_CFG } from "../support/cluster.js";
import { requireBinary, startRedis, type RunningRedis } from "../support/redis.js";
import { startEverything, stopChild, waitFor, type Running } from "../support/servers.js";

/*
 * The deployment files cannot be run here (no Docker, no kubectl): each is parsed and checked where it meets guardwire —
 * its config loads with guardwire's own loader, its probes are paths guardwire answers, its names meet up.
 */

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- manifests are free-form

const COMPOSE_DIR = join(ROOT, "examples", "compose");
const K8S_DIR = join(ROOT, "deploy", "kubernetes");
const sessionKey = () => randomBytes(32).toString("base64");
const token = () => randomBytes(24).toString("hex");
const run = promisify(execFile);

/** `${VAR}`, `${VAR:?message}` and `${VAR:-default}` as compose reads them, from `env`. */
function composeInterpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{([A-Z0-9_]+)(?::[?-][^}]*)?\}/g, (_m, name: string) => {
    const v = env[name];
    if (v === undefined) throw new Error(`compose needs ${name}`);
    return v;
  });
}

describe("examples/compose: Redis, three replicas, HAProxy with the shipped config", () => {
  const compose = parse(readFileSync(join(COMPOSE_DIR, "compose.yaml"), "utf8"), { merge: true }) as Obj;
  const services = compose.services as Obj;
  const replicas = ["gw1", "gw2", "gw3"];
  // What README.md's command writes to .env.
  const dotEnv = { GUARDWIRE_SESSION_KEY_1: sessionKey(), GUARDWIRE_SESSION_KEY_2: sessionKey(), GUARDWIRE_AGENT_KEY: token(), GUARDWIRE_ADMIN_TOKEN: token() };
  const envOf = (service: string) => Object.fromEntries(Object.entries(services[service].environment as Obj).map(([k, v]) => [k, composeInterpolate(String(v), dotEnv)]));

  it("has Redis, the MCP server, three replicas built from the repository's Dockerfile, and HAProxy", () => {
    expect(Object.keys(services).sort()).toEqual(["everything", "gw1", "gw2", "gw3", "haproxy", "redis"]);
    for (const id of replicas) {
      const s = services[id];
      const context = resolve(COMPOSE_DIR, s.build.context);
      expect(context).toBe(ROOT);
      expect(existsSync(join(context, s.build.dockerfile))).toBe(true);
      expect(envOf(id).GUARDWIRE_REPLICA).toBe(id);
      expect(Object.keys(s.depends_on)).toContain("redis");
    }
    expect(services.redis.image).toMatch(/^redis:/);
  });

  it("each replica's config loads with guardwire's loader from the environment compose gives it", () => {
    for (const id of replicas) {
      const s = services[id];
      const configPath = s.command[s.command.indexOf("--config") + 1] as string;
      const mount = (s.volumes as string[]).map((v) => v.split(":")).find(([, target]) => configPath.startsWith(`${target}/`));
      expect(mount, `a volume holds ${configPath}`).toBeDefined();
      const [source, target] = mount as [string, string];
      const file = join(COMPOSE_DIR, source, configPath.slice(target.length));
      const { config, problems } = loadConfig(file, envOf(id));
      expect(problems).toEqual([]);
      expect(config?.replica.id).toBe(id);
      expect(config?.store?.redis).toBe("redis://redis:6379/0");
      expect(config?.sessions?.keys).toEqual([dotEnv.GUARDWIRE_SESSION_KEY_1, dotEnv.GUARDWIRE_SESSION_KEY_2]);
      expect(config?.listen.port).toBe(7070);
      // The MCP server's address is the compose service and the port it is told to use.
      const route = config?.routes[0]?.mcp as { url: string };
      expect(new URL(route.url).host).toBe(`everything:${services.everything.environment.PORT}`);
      // The rules it names are in the same folder and load (after the shipped pack).
      const rules = (config?.rules as string[]).map((r) => (r.startsWith(target) ? join(COMPOSE_DIR, source, r.slice(target.length)) : r));
      expect(readAndLoadRules(rules).ruleSet).toBeDefined();
    }
  });

  it("HAProxy mounts the shipped config and gives it every address it reads, each a replica's listen port", () => {
    const h = services.haproxy;
    const [source, target] = (h.volumes[0] as string).split(":") as [string, string];
    expect(resolve(COMPOSE_DIR, source)).toBe(SHIPPED_HAPROXY_CFG);
    expect(target).toBe("/usr/local/etc/haproxy/haproxy.cfg");
    const env = envOf("haproxy");
    const wanted = [...readFileSync(SHIPPED_HAPROXY_CFG, "utf8").matchAll(/"\$\{([A-Z0-9_]+)\}"/g)].map((m) => m[1] as string);
    const distinct = [...new Set(wanted)];
    expect(distinct.sort()).toEqual(["GW_BIND", "GW_REPLICA_1", "GW_REPLICA_2", "GW_REPLICA_3"]);
    for (const name of wanted) expect(env[name], name).toBeTruthy();
    expect([1, 2, 3].map((n) => env[`GW_REPLICA_${n}`])).toEqual(replicas.map((id) => `${id}:7070`));
    expect(h.ports).toContain(`${env.GW_BIND?.replace(/^:/, "")}:${env.GW_BIND?.replace(/^:/, "")}`);
  });

  it("the shipped haproxy.cfg is valid for haproxy itself (haproxy -c)", async () => {
    const bin = requireBinary("haproxy", "haproxy");
    const env = { ...process.env, GW_BIND: "127.0.0.1:17070", GW_REPLICA_1: "127.0.0.1:17071", GW_REPLICA_2: "127.0.0.1:17072", GW_REPLICA_3: "127.0.0.1:17073" };
    const r = await run(bin, ["-c", "-f", SHIPPED_HAPROXY_CFG], { env });
    expect(r.stdout + r.stderr).toMatch(/Configuration file is valid/);
  });

  it("the Dockerfile builds on node 20 with npm ci and the build, and exposes the port the configs listen on", () => {
    const docker = readFileSync(join(ROOT, "Dockerfile"), "utf8");
    expect(docker).toMatch(/^FROM node:20[-\w]*slim AS build$/m);
    expect(docker).toMatch(/^RUN npm ci /m);
    expect(docker).toMatch(/^RUN npm run build$/m);
    expect(docker).toMatch(/^EXPOSE 7070$/m);
    expect(docker).toMatch(/^USER node$/m);
    expect(docker).toContain('ENTRYPOINT ["node", "/app/dist/cli/main.js"]');
  });
});

describe("deploy/kubernetes: Deployment, Service, ConfigMap, Secret, PodDisruptionBudget, HPA, Redis", () => {
  const docs: Obj[] = [];
  const kustomization = parse(readFileSync(join(K8S_DIR, "kustomization.yaml"), "utf8")) as Obj;
  for (const f of [...(kustomization.resources as string[]), "secret.yaml"]) {
    for (const d of parseAllDocuments(readFileSync(join(K8S_DIR, f), "utf8"))) {
      expect(d.errors, f).toEqual([]);
      docs.push(d.toJS() as Obj);
    }
  }
  const find = (kind: string, name: string) => {
    const d = docs.find((x) => x.kind === kind && x.metadata?.name === name);
    if (!d) throw new Error(`no ${kind} ${name}`);
    return d;
  };
  const deployment = find("Deployment", "guardwire");
  const pod = deployment.spec.template.spec as Obj;
  const container = pod.containers[0] as Obj;
  const configMap = find("ConfigMap", "guardwire-config");
  const secret = find("Secret", "guardwire-secrets");
  const labels = deployment.spec.template.metadata.labels as Obj;
  const matches = (selector: Obj) => Object.entries(selector).every(([k, v]) => labels[k] === v);

  it("every kind is there, and kustomize lists every file but the Secret (made from the command line)", () => {
    expect(new Set(docs.map((d) => d.kind))).toEqual(new Set(["ConfigMap", "Secret", "Deployment", "Service", "PodDisruptionBudget", "HorizontalPodAutoscaler"]));
    expect(kustomization.resources).not.toContain("secret.yaml");
    expect(docs.filter((d) => d.kind === "Deployment").map((d) => d.metadata.name).sort()).toEqual(["guardwire", "redis"]);
  });

  it("the Deployment names each replica by its pod, probes /readyz and /healthz on the port guardwire listens on, and mounts the ConfigMap", () => {
    const env = Object.fromEntries((container.env as Obj[]).map((e) => [e.name, e]));
    expect(env.GUARDWIRE_REPLICA.valueFrom.fieldRef.fieldPath).toBe("metadata.name");
    expect(container.readinessProbe.httpGet.path).toBe("/readyz");
    expect(container.livenessProbe.httpGet.path).toBe("/healthz");
    const port = (name: string | number) => (typeof name === "number" ? name : (container.ports as Obj[]).find((p) => p.name === name)?.containerPort);
    expect(port(container.readinessProbe.httpGet.port)).toBe(7070);
    expect(port(container.livenessProbe.httpGet.port)).toBe(7070);
    // Every secret the pod reads is in the Secret.
    for (const e of container.env as Obj[]) {
      const ref = e.valueFrom?.secretKeyRef;
      if (!ref) continue;
      expect(ref.name).toBe(secret.metadata.name);
      expect(Object.keys(secret.stringData)).toContain(ref.key);
    }
    const configArg = container.args[container.args.indexOf("--config") + 1] as string;
    const mount = (container.volumeMounts as Obj[]).find((m) => configArg.startsWith(`${m.mountPath}/`));
    const volume = (pod.volumes as Obj[]).find((v) => v.name === mount?.name);
    expect(volume?.configMap?.name).toBe(configMap.metadata.name);
    expect(Object.keys(configMap.data)).toContain(configArg.slice((mount?.mountPath as string).length + 1));
    expect(container.resources.requests.cpu).toBeTruthy(); // the HPA's utilization is of this request
  });

  it("the Service, the PodDisruptionBudget and the HPA all meet the Deployment", () => {
    const service = find("Service", "guardwire");
    expect(matches(service.spec.selector)).toBe(true);
    expect(service.spec.sessionAffinity ?? "None").toBe("None");
    const pdb = find("PodDisruptionBudget", "guardwire");
    expect(matches(pdb.spec.selector.matchLabels)).toBe(true);
    expect(pdb.spec.minAvailable).toBeLessThan(deployment.spec.replicas);
    const hpa = find("HorizontalPodAutoscaler", "guardwire");
    expect(hpa.apiVersion).toBe("autoscaling/v2");
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name: "guardwire" });
    expect(hpa.spec.metrics[0].resource.name).toBe("cpu");
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(deployment.spec.replicas);
    expect(matches(deployment.spec.selector.matchLabels)).toBe(true);
  });

  describe("the ConfigMap's config, with the environment the Deployment gives a pod", () => {
    let redis: RunningRedis;
    let upstream: Running;
    const pod = "guardwire-7d9f8c6b5-x2x4q";
    let env: Record<string, string>;
    let dir: string;

    beforeAll(async () => {
      redis = await startRedis();
      upstream = await startEverything("streamableHttp");
      const values: Record<string, string> = { "session-key-1": sessionKey(), "session-key-2": sessionKey(), "redis-url": redis.url };
      const fields: Record<string, string> = { "metadata.name": pod, "status.podIP": "127.0.0.1" };
      env = Object.fromEntries(
        (container.env as Obj[]).map((e) => [e.name, e.value ?? (e.valueFrom.fieldRef ? fields[e.valueFrom.fieldRef.fieldPath] : (values[e.valueFrom.secretKeyRef.key] ?? token()))]),
      );
      // The ConfigMap as the pod sees it, in a folder of its own.
      dir = tempDir();
      mkdirSync(join(dir, "etc"));
      for (const [name, text] of Object.entries(configMap.data as Record<string, string>)) writeFileSync(join(dir, "etc", name), text);
    }, 60_000);
    afterAll(async () => {
      await upstream?.stop();
      await redis?.stop();
    });

    it("loads with guardwire's loader: the store, both session keys, the pod's name as replica id", () => {
      const { config, problems } = loadConfig(join(dir, "etc", "guardwire.yaml"), env);
      expect(problems).toEqual([]);
      expect(config?.replica).toEqual({ id: pod, advertise: "http://127.0.0.1:7070" });
      expect(config?.store).toMatchObject({ redis: redis.url, onUnavailable: "closed" });
      expect(config?.sessions?.keys).toHaveLength(2);
      expect(config?.listen.port).toBe(7070);
      const mountPath = (container.volumeMounts as Obj[]).find((m) => m.name === "config")?.mountPath as string;
      const rules = (config?.rules as string[]).map((r) => r.replace(mountPath, join(dir, "etc")));
      expect(readAndLoadRules(rules).ruleSet?.name).toBe("balanced+team");
    });

    it("serves: /healthz and /readyz (the probes) answer with the pod's name, the rules version and Redis up", async () => {
      // Only what a test machine needs changed: loopback and free ports, the folders, and a real MCP server.
      const mountPath = (container.volumeMounts as Obj[]).find((m) => m.name === "config")?.mountPath as string;
      const text = readFileSync(join(dir, "etc", "guardwire.yaml"), "utf8")
        .replaceAll(mountPath, join(dir, "etc"))
        .replace("/var/log/guardwire/", `${join(dir, "logs")}/`)
        .replace("{ host: 0.0.0.0, port: 7070 }", "{ host: 127.0.0.1, port: 0 }")
        .replace("0.0.0.0:9090", "127.0.0.1:0")
        .replace(/url: http:\/\/mcp-tools\S+/, `url: ${upstream.url}`);
      const config = join(dir, "local.yaml");
      writeFileSync(config, text);
      const child = spawn(process.execPath, [CLI, "serve", "--config", config, "--pins", join(dir, "pins.json")], {
        env: { ...process.env, ...env, GUARDWIRE_ADMIN_FILE: join(dir, "admin.json") },
        stdio: ["ignore", "pipe", "pipe"],
      });
      try {
        const base = (await waitFor(child, /serving (http:\/\/\S+)/)).match[1] as string;
        let ready: Response | undefined;
        for (let i = 0; i < 200 && ready?.status !== 200; i++) {
          if (i > 0) await new Promise((r) => setTimeout(r, 50));
          ready = await fetch(base + container.readinessProbe.httpGet.path);
        }
        expect(ready?.status).toBe(200);
        const live = await fetch(base + container.livenessProbe.httpGet.path);
        expect(live.status).toBe(200);
        expect(await live.json()).toMatchObject({ status: "ok", replica: pod, ruleset: { name: "balanced+team" }, store: { backend: "redis", state: "up" } });
      } finally {
        await stopChild(child);
      }
      // The log file is named after the pod: one chain per replica.
      expect(existsSync(join(dir, "logs", `decisions.${pod}.ndjson`))).toBe(true);
    }, 60_000);
  });
});
