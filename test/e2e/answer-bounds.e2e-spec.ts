import { createEndpoint, createPrompt } from '../support/endpoint-fixtures';
import { useTestApp } from '../support/app-suite';
import { auth, seedTenant } from '../support/seed';
import { streamCall } from '../support/sse-client';
import { logOf } from '../support/log-rows';

const MAX_ANSWER_BYTES = 64 * 1024;
const TOO_LARGE = { error: 'upstream_error', message: "the model's answer is too large" };

/**
 * What one endpoint may cost the service: at most 100 input and 100 output fields, and answers of at most
 * MAX_ANSWER_BYTES from every provider (the read stops there and the connection is closed) and from the mock.
 */
describe('answer and endpoint size bounds', () => {
  const { t, tenant, fake } = useTestApp({
    config: { maxAnswerBytes: MAX_ANSWER_BYTES },
    fake: { providers: true },
    listen: true,
  });

  const admin = () => auth(tenant.admin);

  /** Whether the fake provider saw the connection of its last request closed before its answer was complete. */
  async function closedEarly(): Promise<boolean | undefined> {
    const deadline = Date.now() + 2000;
    while (fake.last().closedEarly === undefined && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return fake.last().closedEarly;
  }

  describe('fields per endpoint', () => {
    it.each(['input', 'output'])(
      'takes 100 %s fields, added at once, and refuses the 101st with 400 naming the list',
      async (kind) => {
        const endpoint = await createEndpoint(t, tenant.admin);
        const add = (index: number) =>
          t.http
            .post(`/admin/v1/endpoints/${endpoint.id}/${kind}-fields`)
            .set(admin())
            .send({ name: `f${index}`, dataType: 'string' });
        // 105 additions, 15 at a time: exactly 100 succeed whatever the interleaving.
        const statuses: number[] = [];
        for (let start = 0; start < 105; start += 15) {
          const batch = await Promise.all(
            Array.from({ length: 15 }, (_, offset) => add(start + offset).then((res) => res)),
          );
          for (const res of batch) {
            statuses.push(res.status);
            if (res.status !== 201) {
              expect(res.status).toBe(400);
              expect(res.body).toEqual({
                succeeded: false,
                messages: [`${kind}Fields must have at most 100 fields; the endpoint has 100`],
                data: null,
              });
            }
          }
        }
        expect(statuses.filter((status) => status === 201)).toHaveLength(100);
        const stored = await t.http.get(`/admin/v1/endpoints/${endpoint.id}`).set(admin());
        expect(stored.body.data[`${kind}Fields`]).toHaveLength(100);

        // A field removed makes room for one more.
        const [first] = stored.body.data[`${kind}Fields`];
        await t.http.delete(`/admin/v1/endpoints/${endpoint.id}/${kind}-fields/${first.id}`).set(admin()).expect(200);
        expect((await add(1000)).status).toBe(201);
        expect((await add(1001)).status).toBe(400);
      },
    );

    it("another tenant's endpoint is still a 404, not a count", async () => {
      const other = await seedTenant(t.app);
      const endpoint = await createEndpoint(t, other.admin);
      const res = await t.http
        .post(`/admin/v1/endpoints/${endpoint.id}/input-fields`)
        .set(admin())
        .send({ name: 'x', dataType: 'string' });
      expect(res.status).toBe(404);
    });
  });

  describe('answers over MAX_ANSWER_BYTES', () => {
    const big = 'x'.repeat(4 * MAX_ANSWER_BYTES);

    it.each([
      ['openai', 'gpt-4o-mini'],
      ['anthropic', 'claude-sonnet-4-5'],
      ['google', 'gemini-2.5-flash'],
      ['openai-compatible', 'llama-test'],
    ])('%s: a 502 upstream_error, logged; the read stops and the connection is closed', async (_kind, model) => {
      const endpoint = await createEndpoint(t, tenant.admin);
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'Write a lot', llmModel: model });
      fake.reply({ text: big, paced: { pieces: 64, pauseMs: 10 } });
      const res = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({});
      expect(res.status).toBe(502);
      expect(res.body).toEqual(TOO_LARGE);
      expect(await closedEarly()).toBe(true);
      expect(await logOf(t, tenant.admin, res.headers['x-request-id'])).toMatchObject({
        status: 'error',
        httpStatus: 502,
        errorCode: 'upstream_error',
        errorMessage: TOO_LARGE.message,
      });

      // The same answer at once (its length declared): refused before its body is read.
      fake.reply({ text: big });
      const declared = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({});
      expect([declared.status, declared.body]).toEqual([502, TOO_LARGE]);

      // An answer within the bound is served.
      fake.reply({ text: '"small"' });
      const small = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({});
      expect([small.status, small.body]).toEqual([200, 'small']);
    });

    it.each([
      ['openai', 'gpt-4o-mini'],
      ['anthropic', 'claude-sonnet-4-5'],
      ['google', 'gemini-2.5-flash'],
      ['openai-compatible', 'llama-test'],
    ])(
      '%s streamed: an error event upstream_error after what was sent; the connection is closed',
      async (_kind, model) => {
        const endpoint = await createEndpoint(t, tenant.admin);
        await createPrompt(t, tenant.admin, endpoint.id, { template: 'Write a lot', llmModel: model });
        fake.reply({ text: big, stream: { chunks: 64, chunkDelayMs: 10 } });
        const call = await streamCall(
          `${t.url}${endpoint.path}`,
          { ...auth(tenant.endpointKey), accept: 'text/event-stream' },
          {},
        );
        expect(call.status).toBe(200);
        const last = call.events.at(-1)!;
        expect([last.event, last.data]).toEqual(['error', TOO_LARGE]);
        expect(call.events.some((event) => event.event === 'done')).toBe(false);
        expect(await closedEarly()).toBe(true);
      },
    );

    it('image answers are bounded by what their images may weigh, not by the text bound', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, {
        outputs: [{ name: 'image', dataType: 'image', exampleValue: '{"size":"1024x1024"}' }],
      });
      await createPrompt(t, tenant.admin, endpoint.id, { template: 'A lighthouse', llmModel: 'gpt-image-1' });
      const b64 = 'A'.repeat(4 * MAX_ANSWER_BYTES);
      fake.reply({ images: [{ b64 }] });
      const res = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({});
      expect(res.status).toBe(200);
      expect(res.body.generatedImages[0].base64Data).toHaveLength(b64.length);
    });

    it('mock-echo: an answer that would hold the prompt in too many fields is refused before it is built', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, {
        inputs: [{ name: 'text', dataType: 'string' }],
        outputs: Array.from({ length: 10 }, (_, index) => ({ name: `s${index}`, dataType: 'string' })),
      });
      await createPrompt(t, tenant.admin, endpoint.id, { template: '{{ inputs.text }}', llmModel: 'mock-echo' });
      const text = 'y'.repeat(MAX_ANSWER_BYTES / 8);
      const res = await t.http.post(endpoint.path).set(auth(tenant.endpointKey)).send({ text });
      expect([res.status, res.body]).toEqual([502, TOO_LARGE]);
      expect(await logOf(t, tenant.admin, res.headers['x-request-id'])).toMatchObject({
        httpStatus: 502,
        errorCode: 'upstream_error',
        errorMessage: TOO_LARGE.message,
      });
      const streamed = await streamCall(
        `${t.url}${endpoint.path}`,
        { ...auth(tenant.endpointKey), accept: 'text/event-stream' },
        { text },
      );
      expect(streamed.events.at(-1)).toMatchObject({ event: 'error', data: TOO_LARGE });

      // Within the bound (the prompt in 10 fields under 64 KiB), the echo is served.
      const within = await t.http
        .post(endpoint.path)
        .set(auth(tenant.endpointKey))
        .send({ text: 'z'.repeat(MAX_ANSWER_BYTES / 16) });
      expect(within.status).toBe(200);
      expect(within.body.s9).toHaveLength(MAX_ANSWER_BYTES / 16);

      const raw = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'text', dataType: 'string' }] });
      await createPrompt(t, tenant.admin, raw.id, { template: '{{ inputs.text }}', llmModel: 'mock-echo' });
      const rawTooLarge = await t.http
        .post(raw.path)
        .set(auth(tenant.endpointKey))
        .send({ text: 'w'.repeat(MAX_ANSWER_BYTES + 1) });
      expect([rawTooLarge.status, rawTooLarge.body]).toEqual([502, TOO_LARGE]);
    });
  });
});
