import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { FakeLlmServer, localModelsFile } from '../support/fake-llm-server';
import { auth } from '../support/seed';
import type { TestApp } from '../support/test-app';
import { eventually } from '../support/eventually';

/**
 * Tracing as it runs in production: the built service in its own process (the tracing bootstrap must run before the
 * application's modules load), exporting over OTLP/HTTP to a receiver started here, which decodes the JSON export.
 * On PostgreSQL and Redis when DATABASE_URL and REDIS_URL are set, on the embedded database otherwise.
 */
const ROOT = path.join(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const ADMIN_KEY = 'epa_' + 'Tr4cingTestKey'.repeat(3);

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: OtlpValue[] };
};

/** A span as the receiver decoded it, its attributes as plain values. */
interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 2 server, 3 client. */
  kind: number;
  attributes: Record<string, unknown>;
  service: string;
}

function plain(value: OtlpValue): unknown {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(plain);
  return undefined;
}

function attributesOf(list: { key: string; value: OtlpValue }[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, plain(value)]));
}

/** A collector's OTLP/HTTP traces endpoint, JSON encoding. */
class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly contentTypes = new Set<string>();

  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(): Promise<OtlpReceiver> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/v1/traces') {
          receiver.contentTypes.add(String(req.headers['content-type']));
          receiver.decode(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new OtlpReceiver(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return receiver;
  }

  private decode(body: any): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
      for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
        for (const span of scopeSpans.spans ?? []) {
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            service,
          });
        }
      }
    }
  }

  async waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs = 15_000): Promise<ReceivedSpan[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.spans)) {
      if (Date.now() > deadline) throw new Error(`Spans never arrived: ${this.spans.map((s) => s.name).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return this.spans;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

interface Service {
  child: ChildProcess;
  url: string;
  stdout: string[];
  dataDir: string;
}

async function startService(env: Record<string, string>): Promise<Service> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-tracing-'));
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    // Port 0: the system picks a free one, which the service names in its first log line.
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    INITIAL_ADMIN_KEY: ADMIN_KEY,
    INITIAL_TENANT: `tracing-${randomBytes(4).toString('hex')}`,
    ADMIN_RATE_LIMIT_PER_MINUTE: '10000',
    // The SDK's batch delay (read by the SDK itself), short so the test does not wait 5 s for each export.
    OTEL_BSP_SCHEDULE_DELAY: '100',
    SHUTDOWN_DRAIN_MS: '0',
    ...env,
  };
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: childEnv });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(...chunk.toString().split('\n').filter(Boolean)));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  return eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`The service exited: ${stderr.join('')}`);
      const listening = stdout.map((line) => /listening on (http:\/\/[^"\s]+)/.exec(line)?.[1]).find(Boolean);
      if (!listening) return undefined;
      const url = listening.replace('[::1]', '127.0.0.1');
      const healthy = await fetch(`${url}/health`).then(
        (res) => res.ok,
        () => false,
      );
      return healthy && { child, url, stdout, dataDir };
    },
    'the service to listen and answer /health',
    { timeoutMs: 90_000 },
  );
}

async function stopService(service: Service): Promise<void> {
  const exited = new Promise((resolve) => service.child.once('exit', resolve));
  service.child.kill('SIGTERM');
  await exited;
  fs.rmSync(service.dataDir, { recursive: true, force: true });
}

const TRACE_ID = randomBytes(16).toString('hex');
const PARENT_SPAN_ID = randomBytes(8).toString('hex');
const SECRET_INPUT = 'zebra-sentinel-' + randomBytes(4).toString('hex');

describe.each([
  ['without content capture', false],
  ['with OTEL_CAPTURE_CONTENT=true', true],
])('tracing over OTLP/HTTP (%s)', (_title, captureContent) => {
  let receiver: OtlpReceiver;
  let fake: FakeLlmServer;
  let models: ReturnType<typeof localModelsFile>;
  let service: Service;
  let t: TestApp;
  let endpointPath: string;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    fake = await FakeLlmServer.start();
    models = localModelsFile(fake);
    service = await startService({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_SERVICE_NAME: 'promptgate-under-test',
      OTEL_CAPTURE_CONTENT: String(captureContent),
      MODELS_FILE: models.file,
    });
    t = { http: request(service.url) } as TestApp;
    const endpoint = await createEndpoint(t, ADMIN_KEY, {
      cacheEnabled: true,
      cacheDurationSeconds: 60,
      inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
    });
    await createPrompt(t, ADMIN_KEY, endpoint.id, { template: 'Say {{ inputs.text }}', llmModel: 'llama-test' });
    endpointPath = endpoint.path;
  }, 120_000);
  afterAll(async () => {
    await stopService(service);
    await receiver.close();
    await fake.close();
    models.remove();
  });

  it('continues the caller trace: a server span, a chat client span per provider call with the GenAI attributes', async () => {
    fake.reply({ text: 'fake answer to the zebra', inputTokens: 13, outputTokens: 5 });
    const requestId = `traced-${randomBytes(4).toString('hex')}`;
    const res = await t.http
      .post(endpointPath)
      .set({ ...auth(ADMIN_KEY), traceparent: `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`, 'x-request-id': requestId })
      .send({ text: SECRET_INPUT });
    expect(res.status).toBe(200);

    // The server span ends after the answer is sent, so it may come in a later export than the chat span.
    const spans = await receiver.waitFor(
      (all) =>
        all.some((span) => span.traceId === TRACE_ID && span.name === 'chat llama-test') &&
        all.some((span) => span.traceId === TRACE_ID && span.kind === 2),
    );
    expect([...receiver.contentTypes]).toEqual(['application/json']);
    const trace = spans.filter((span) => span.traceId === TRACE_ID);
    const server = trace.find((span) => span.kind === 2)!;
    expect(server).toBeDefined();
    expect(server.parentSpanId).toBe(PARENT_SPAN_ID);
    expect(server.service).toBe('promptgate-under-test');
    expect(server.attributes['http.request.method'] ?? server.attributes['http.method']).toBe('POST');

    const chats = trace.filter((span) => span.name === 'chat llama-test');
    expect(chats).toHaveLength(1);
    const [chat] = chats;
    expect(chat.kind).toBe(3);
    expect(chat.parentSpanId).toBe(server.spanId);
    expect(chat.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'local',
      'gen_ai.request.model': 'llama-test',
      'gen_ai.response.model': 'llama-test',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 13,
      'gen_ai.usage.output_tokens': 5,
    });
    // The provider's HTTP request is the chat span's child.
    const providerCall = trace.find((span) => span.parentSpanId === chat.spanId);
    expect(providerCall?.kind).toBe(3);
    expect(String(providerCall?.attributes['url.full'])).toContain('/local/v1/chat/completions');

    // The request id is on every span of the request.
    for (const span of trace)
      expect([span.name, span.attributes['promptgate.request_id']]).toEqual([span.name, requestId]);

    // Prompt and answer text only with OTEL_CAPTURE_CONTENT=true.
    const withPrompt = trace.filter((span) => JSON.stringify(span.attributes).includes(SECRET_INPUT));
    if (captureContent) {
      expect(withPrompt.map((span) => span.name)).toEqual(['chat llama-test']);
      expect(JSON.parse(String(chat.attributes['gen_ai.input.messages']))).toEqual([
        { role: 'user', parts: [{ type: 'text', content: `Say ${SECRET_INPUT}` }] },
      ]);
      expect(String(chat.attributes['gen_ai.output.messages'])).toContain('fake answer to the zebra');
    } else {
      expect(withPrompt).toEqual([]);
      expect(JSON.stringify(spans)).not.toContain('fake answer to the zebra');
      expect(chat.attributes['gen_ai.input.messages']).toBeUndefined();
    }

    // The access log line of the request carries its trace id.
    const line = service.stdout.map((text) => JSON.parse(text)).find((entry) => entry.requestId === requestId);
    expect(line).toMatchObject({ msg: 'request', trace_id: TRACE_ID });
    expect(line.span_id).toMatch(/^[0-9a-f]{16}$/);
  });

  it("carries the execution's tags as promptgate.tag.<key> attributes of its server span", async () => {
    fake.reply({ text: 'tagged answer' });
    const requestId = `tagged-${randomBytes(4).toString('hex')}`;
    await t.http
      .post(endpointPath)
      .set({ ...auth(ADMIN_KEY), 'x-request-id': requestId, 'X-Tags': 'team=search,q=100%25' })
      .send({ text: `tags ${requestId}` })
      .expect(200);
    const spans = await receiver.waitFor((all) =>
      all.some((span) => span.attributes['promptgate.request_id'] === requestId && span.kind === 2),
    );
    const server = spans.find((span) => span.attributes['promptgate.request_id'] === requestId && span.kind === 2)!;
    expect(server.attributes).toMatchObject({ 'promptgate.tag.team': 'search', 'promptgate.tag.q': '100%' });
  });

  it('has database spans (and Redis spans on Redis) under the requests that made them', async () => {
    const requestId = `admin-${randomBytes(4).toString('hex')}`;
    const created = await t.http
      .post('/admin/v1/endpoints')
      .set({ ...auth(ADMIN_KEY), 'x-request-id': requestId })
      .send({ name: 'Traced', path: `/api/v1/traced-${randomBytes(3).toString('hex')}` });
    expect(created.status).toBe(201);
    const spans = await receiver.waitFor((all) =>
      all.some((span) => span.attributes['promptgate.request_id'] === requestId && span.kind === 2),
    );
    const own = spans.filter((span) => span.attributes['promptgate.request_id'] === requestId);
    const server = own.find((span) => span.kind === 2)!;
    const queries = own.filter(
      (span) => span.attributes['db.system.name'] === 'postgresql' || span.attributes['db.system'] === 'postgresql',
    );
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.every((span) => span.traceId === server.traceId)).toBe(true);
    expect(
      queries.some((span) =>
        /INSERT INTO "?endpoints"?/i.test(String(span.attributes['db.query.text'] ?? span.attributes['db.statement'])),
      ),
    ).toBe(true);

    if (process.env.REDIS_URL) {
      const redisRequest = `redis-${randomBytes(4).toString('hex')}`;
      await t.http
        .post(endpointPath)
        .set({ ...auth(ADMIN_KEY), 'x-request-id': redisRequest })
        .send({ text: 'cached?' })
        .expect(200);
      const all = await receiver.waitFor((received) =>
        received.some(
          (span) =>
            span.attributes['promptgate.request_id'] === redisRequest &&
            (span.attributes['db.system.name'] ?? span.attributes['db.system']) === 'redis',
        ),
      );
      expect(
        all.some(
          (span) => span.attributes['promptgate.request_id'] === redisRequest && span.name === 'chat llama-test',
        ),
      ).toBe(true);
    }
  });
});
