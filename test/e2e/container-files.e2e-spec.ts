import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import { loadConfig } from '../../src/config/app-config';

/**
 * Docker cannot run here, so the Dockerfile and docker-compose.yml are checked by reading them: the image builds from
 * the lockfile or fails, runs the production dependencies only as an unprivileged user under an init process, keeps
 * the embedded database in a volume and checks its own health; compose gives the service's drain time to finish and
 * takes its secrets from .env.
 */
const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

/** The Dockerfile's global ARGs and its stages, each instruction on one line (continuations joined). */
function parseDockerfile(text: string): { args: Record<string, string>; stages: Stage[] } {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword, rest] = /^(\S+)\s+(.*)$/.exec(line)!;
    const instruction = { keyword: keyword.toUpperCase(), args: rest.replace(/\s+/g, ' ') };
    if (instruction.keyword === 'FROM') {
      const [from, as, name] = instruction.args.split(' ');
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length === 0 && instruction.keyword === 'ARG') {
      const [name, value] = instruction.args.split('=');
      args[name] = value;
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return { args, stages };
}

const all = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);
const last = (stage: Stage, keyword: string) => all(stage, keyword).at(-1)?.args;
const seconds = (duration: string) => {
  const match = /^(\d+)(ms|s|m)$/.exec(duration);
  if (!match) throw new Error(`not a duration: ${duration}`);
  return Number(match[1]) / { ms: 1000, s: 1, m: 1 / 60 }[match[2] as 'ms' | 's' | 'm'];
};

/**
 * How long the service may drain on SIGTERM before it exits by force, in seconds: its drain setting (a config value
 * when there is one, else the constant main.ts holds) plus the margin main.ts adds before exiting by force.
 */
function drainSeconds(): number {
  const main = read('src/main.ts');
  const margin = /setTimeout\(\(\) => process\.exit\(1\), [A-Z_a-z.]+ \+ ([\d_]+)\)/.exec(main);
  const fromConfig = Object.entries(loadConfig({}))
    .filter(([name, value]) => /shutdown|drain|grace/i.test(name) && typeof value === 'number')
    .map(([, value]) => value as number);
  const constant = /SHUTDOWN_GRACE_MS\s*=\s*([\d_]+)/.exec(main);
  const drainMs = fromConfig[0] ?? (constant ? Number(constant[1].replace(/_/g, '')) : NaN);
  expect(drainMs).toBeGreaterThan(0);
  return (drainMs + (margin ? Number(margin[1].replace(/_/g, '')) : 0)) / 1000;
}

describe('the Dockerfile', () => {
  const { args, stages } = parseDockerfile(read('Dockerfile'));
  const runtime = stages.at(-1)!;
  const runs = stages.flatMap((stage) => all(stage, 'RUN').map((run) => run.args));

  it('builds every stage on Node 24 LTS (bookworm, slim), pinned by digest', () => {
    expect(stages.length).toBeGreaterThanOrEqual(3);
    for (const stage of stages) {
      const [image, digest] = stage.from.split('@');
      expect(image).toBe('node:24-bookworm-slim');
      const resolved = digest.replace(/^\$\{(\w+)\}$/, (_, name: string) => args[name] ?? '');
      expect(resolved).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
  });

  it('installs from the lockfile with npm ci or fails, never falling back to npm install', () => {
    const installs = runs.filter((run) => /\bnpm (ci|install|i)\b/.test(run));
    expect(installs.length).toBeGreaterThanOrEqual(2);
    for (const install of installs) {
      expect(install).toMatch(/^npm ci\b/);
      expect(install).not.toMatch(/\|\||\bnpm (install|i)\b|;/);
    }
  });

  it('runs on a stage of production dependencies only, without the optional packages by default', () => {
    const dependencies = stages.find((stage) => all(stage, 'RUN').some((run) => /npm ci .*--omit=dev/.test(run.args)));
    expect(dependencies?.name).toBeDefined();
    const stageArgs = Object.fromEntries(all(dependencies!, 'ARG').map((arg) => arg.args.split(/=(.*)/, 2)));
    const install = all(dependencies!, 'RUN')
      .find((run) => run.args.startsWith('npm ci'))!
      .args.replace(/\$\{(\w+)\}/g, (_, name: string) => stageArgs[name] ?? '');
    expect(install).toMatch(/ --omit=dev .*--omit=optional /);
    const copies = all(runtime, 'COPY').map((copy) => copy.args);
    expect(copies).toContain(`--from=${dependencies!.name} /app/node_modules ./node_modules`);
    expect(copies.filter((copy) => copy.includes('node_modules'))).toHaveLength(1);
    // The runtime stage installs nothing with npm and builds nothing.
    expect(all(runtime, 'RUN').filter((run) => /\bnpm\b/.test(run.args))).toEqual([]);
  });

  it('runs as the unprivileged node user under tini, with DATA_DIR a volume it owns', () => {
    expect(last(runtime, 'USER')).toBe('node');
    const env = Object.fromEntries(all(runtime, 'ENV').map((e) => e.args.split('=') as [string, string]));
    expect(env.DATA_DIR).toBe('/data');
    expect(JSON.parse(last(runtime, 'VOLUME')!)).toEqual([env.DATA_DIR]);
    expect(all(runtime, 'RUN').some((run) => run.args.includes(`chown node:node ${env.DATA_DIR}`))).toBe(true);
    expect(all(runtime, 'RUN').some((run) => /apt-get install .*\btini\b/.test(run.args))).toBe(true);
    expect(JSON.parse(last(runtime, 'ENTRYPOINT')!)).toEqual(['/usr/bin/tini', '--']);
    expect(JSON.parse(last(runtime, 'CMD')!)).toEqual(['node', 'dist/src/main.js']);
  });

  it('checks its health on /health/ready', () => {
    expect(last(runtime, 'HEALTHCHECK')).toMatch(/^--interval=\S+ .*CMD node -e ".*\/health\/ready'\)/);
  });
});

describe('docker-compose.yml', () => {
  interface ComposeService {
    image?: string;
    build?: string;
    init?: boolean;
    stop_grace_period?: string;
    environment?: Record<string, string>;
    healthcheck?: { test: string[] };
  }
  const text = read('docker-compose.yml');
  const compose = YAML.parse(text, { merge: true }) as { services: Record<string, ComposeService> };
  const promptgate = Object.entries(compose.services).filter(([name]) => name.startsWith('promptgate-'));

  it('gives each instance longer than its drain before Docker kills it, under an init process, health-checked', () => {
    const dockerfile = parseDockerfile(read('Dockerfile'));
    const imageHasInit = JSON.parse(last(dockerfile.stages.at(-1)!, 'ENTRYPOINT') ?? '[]')[0] === '/usr/bin/tini';
    expect(promptgate.length).toBeGreaterThanOrEqual(2);
    for (const [, service] of promptgate) {
      expect(service.build).toBe('.');
      expect(seconds(service.stop_grace_period ?? '10s')).toBeGreaterThan(drainSeconds());
      expect(service.init === true || imageHasInit).toBe(true);
      expect(service.healthcheck?.test.join(' ')).toContain('/health/ready');
    }
  });

  it('holds no password: each comes from .env, which .env.example lists and git and the image leave out', () => {
    expect(text).not.toMatch(/promptgate:promptgate@/);
    expect(compose.services.postgres.environment?.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?.+\}$/);
    expect(promptgate[0][1].environment?.DATABASE_URL).toContain('${POSTGRES_PASSWORD:?');
    expect(compose.services.grafana.environment?.GF_SECURITY_ADMIN_PASSWORD).toMatch(/^\$\{GRAFANA_ADMIN_PASSWORD:\?/);
    for (const service of Object.values(compose.services)) {
      for (const [name, value] of Object.entries(service.environment ?? {})) {
        if (/PASSWORD|SECRET|TOKEN|_KEY$/.test(name)) expect(String(value)).toMatch(/^\$\{|\$\{/);
      }
    }
    const example = read('.env.example');
    const listed = new Set([...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map(([, name]) => name));
    for (const [, name] of text.matchAll(/\$\{([A-Z][A-Z0-9_]*)[:?-]/g)) expect(listed).toContain(name);
    expect(read('.gitignore').split('\n')).toContain('.env');
    expect(read('.dockerignore').split('\n')).toEqual(expect.arrayContaining(['.env', '.env.*']));
  });
});
