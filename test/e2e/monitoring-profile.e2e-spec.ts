import * as fs from 'node:fs';
import * as path from 'node:path';
import YAML from 'yaml';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * docker compose cannot run here, so the `monitoring` profile is checked by reading it: the compose file, the
 * Prometheus configuration and Grafana's provisioning parse, point at each other, and every metric the dashboard
 * queries is one the service exposes.
 */
const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface ComposeService {
  profiles?: string[];
  volumes?: string[];
  configs?: { source: string; target: string }[];
  environment?: Record<string, string>;
}

describe('the monitoring profile of docker-compose.yml', () => {
  const compose = YAML.parse(read('docker-compose.yml')) as {
    services: Record<string, ComposeService>;
    configs: Record<string, { content: string }>;
  };
  const dashboard = JSON.parse(read('deploy/grafana/dashboards/promptgate.json')) as {
    uid: string;
    panels: { title: string; datasource: { uid: string }; targets: { expr: string }[] }[];
  };

  /** The host side of a service's bind mounts, by their path in the container. */
  const mounts = (service: ComposeService) =>
    Object.fromEntries(
      (service.volumes ?? [])
        .filter((volume) => volume.startsWith('./'))
        .map((volume) => [volume.split(':')[1], volume.split(':')[0]]),
    );

  it('runs Prometheus and Grafana only under the profile, with their configuration files present', () => {
    const promptgateServices = Object.keys(compose.services).filter((name) => name.startsWith('promptgate-'));
    expect(promptgateServices.length).toBeGreaterThanOrEqual(2);
    for (const name of promptgateServices) expect(compose.services[name].profiles).toBeUndefined();
    expect(compose.services.prometheus.profiles).toEqual(['monitoring']);
    expect(compose.services.grafana.profiles).toEqual(['monitoring']);
    for (const service of [compose.services.prometheus, compose.services.grafana]) {
      for (const host of Object.values(mounts(service))) expect(fs.existsSync(path.join(ROOT, host))).toBe(true);
    }

    const prometheus = YAML.parse(read(mounts(compose.services.prometheus)['/etc/prometheus/prometheus.yml'])) as {
      scrape_configs: {
        metrics_path: string;
        authorization: { credentials_file: string };
        static_configs: { targets: string[] }[];
      }[];
    };
    const [job] = prometheus.scrape_configs;
    expect(job.metrics_path).toBe('/metrics');
    // Every instance is scraped directly, and the token file is the one compose provides.
    expect(job.static_configs.flatMap((config) => config.targets).sort()).toEqual(
      promptgateServices.map((name) => `${name}:3000`).sort(),
    );
    const tokenConfig = compose.services.prometheus.configs!.find(
      (config) => config.target === job.authorization.credentials_file,
    );
    expect(compose.configs[tokenConfig!.source].content).toBe('${METRICS_TOKEN:-}');
    expect(compose.services['promptgate-1'].environment ?? {}).toBeDefined();

    const grafanaMounts = mounts(compose.services.grafana);
    const datasources = YAML.parse(
      read(path.join(grafanaMounts['/etc/grafana/provisioning'], 'datasources/prometheus.yml')),
    );
    expect(datasources.datasources[0]).toMatchObject({ type: 'prometheus', url: 'http://prometheus:9090' });
    const providers = YAML.parse(
      read(path.join(grafanaMounts['/etc/grafana/provisioning'], 'dashboards/promptgate.yml')),
    );
    const dashboardDir = providers.providers[0].options.path as string;
    expect(fs.existsSync(path.join(ROOT, grafanaMounts[dashboardDir], 'promptgate.json'))).toBe(true);
    for (const panel of dashboard.panels) expect(panel.datasource.uid).toBe(datasources.datasources[0].uid);
  });

  it('keeps /metrics away from the load balancer', () => {
    expect(read('deploy/nginx.conf')).toMatch(/location = \/metrics \{\s*return 404;/);
  });

  describe('the dashboard', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it('queries only metrics the service exposes', async () => {
      const exposition = (await t.http.get('/metrics')).text;
      const exposed = new Set<string>();
      for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
        exposed.add(name);
        if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exposed.add(name + suffix);
      }
      const queried = new Set<string>();
      for (const panel of dashboard.panels) {
        expect(panel.targets.length).toBeGreaterThan(0);
        for (const { expr } of panel.targets) {
          // Metric names, once the label lists (`by (…)`) and label matchers (`{…}`) are set aside.
          const metricsPart = expr.replace(/by \([^)]*\)/g, '').replace(/\{[^}]*\}/g, '');
          for (const [name] of metricsPart.matchAll(/\b(?:promptgate|gen_ai|process|nodejs)_[a-z0-9_]+/g)) {
            queried.add(name);
          }
        }
      }
      expect(queried.size).toBeGreaterThan(10);
      expect([...queried].filter((name) => !exposed.has(name))).toEqual([]);
    });
  });
});
