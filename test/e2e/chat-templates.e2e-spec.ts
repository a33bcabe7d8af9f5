import { createEndpoint, createPrompt, endpointWithPrompt } from '../support/endpoint-fixtures';
import { FAKE_PNG, receivedMessages } from '../support/fake-llm-server';
import { useTestApp } from '../support/app-suite';
import { auth } from '../support/seed';
import { logOf } from '../support/log-rows';

const PNG_URI = `data:image/png;base64,${FAKE_PNG}`;

/** A few-shot chat template: a system message, one example turn, then the caller's question. */
const CHAT_TEMPLATE = [
  '{% # the tone comes first %}',
  '{% system %}You answer in one word.{% endsystem %}',
  '{% user %}Capital of France?{% enduser %}',
  '{% assistant %}Paris{% endassistant %}',
  '{% user %}',
  '{{ inputs.text }}',
  '{% enduser %}',
  '',
].join('\n');

const CHAT_MESSAGES = [
  { role: 'system', content: 'You answer in one word.' },
  { role: 'user', content: 'Capital of France?' },
  { role: 'assistant', content: 'Paris' },
  { role: 'user', content: 'Capital of Italy?' },
];

/**
 * Chat templates: message blocks split a prompt into system, user and assistant messages, which each provider receives
 * in its own form; image inputs reach the model as image parts where the template outputs them. Log detail and test
 * runs show the messages beside the whole rendered text.
 */
describe('chat templates and images in place', () => {
  const { t, tenant, fake } = useTestApp({ fake: { providers: true } });

  const execute = (path: string, body: object, headers: Record<string, string> = {}) =>
    t.http.post(path).set(auth(tenant.endpointKey)).set(headers).send(body);

  describe('the block rules', () => {
    const save = (endpointId: string, template: string) =>
      t.http
        .post('/admin/v1/prompts')
        .set(auth(tenant.admin))
        .send({ endpointId, name: `p-${Math.random().toString(36).slice(2, 8)}`, template, llmModel: 'mock-echo' });

    it('refuses to save a template that breaks them, naming the template with the line and column (400)', async () => {
      const { id } = await createEndpoint(t, tenant.admin, { inputs: [{ name: 'text', dataType: 'string' }] });
      const cases: [string, string][] = [
        ['{% user %}a{% enduser %}\n  stray text', 'line 2, column 3'],
        ['{% user %}a{% enduser %}\n{% system %}s{% endsystem %}', 'line 2, column 1'],
        ['{% user %}a\n{% assistant %}b{% endassistant %}{% enduser %}', 'line 2, column 1'],
        ['{% if inputs.text %}\n{% user %}a{% enduser %}{% endif %}', 'line 2, column 1'],
        ['{% user %}u{% enduser %}\n'.repeat(101), 'line 101, column 1'],
      ];
      for (const [template, position] of cases) {
        const res = await save(id, template);
        expect(res.status).toBe(400);
        expect(res.body.succeeded).toBe(false);
        expect(res.body.messages[0]).toMatch(/^template breaks the message block rules: /);
        expect(res.body.messages[0]).toContain(position);
      }
      const prompt = await createPrompt(t, tenant.admin, id, { template: '{% user %}ok{% enduser %}' }, 'Draft');
      const update = await t.http
        .put(`/admin/v1/prompts/${prompt.id}`)
        .set(auth(tenant.admin))
        .send({ template: '{% user %}a{% enduser %}{{ inputs.text }}' });
      expect(update.status).toBe(400);
      expect(update.body.messages[0]).toContain('an output outside message blocks');
      expect(update.body.messages[0]).toContain('line 1, column 25');
      expect((await save(id, '{% user %}a{% enduser %}\n{% user %}b')).body.messages[0]).toBe(
        'template is not valid Liquid: tag {% user %} not closed (line 2, column 1)',
      );
    });

    it('are reported by the validator with positions, and its variables list image fields', async () => {
      const { id } = await createEndpoint(t, tenant.admin, {
        inputs: [
          { name: 'text', dataType: 'string' },
          { name: 'photo', dataType: 'image' },
        ],
      });
      const validate = (template: string) =>
        t.http.post('/admin/v1/prompts/validate').set(auth(tenant.admin)).send({ endpointId: id, template });
      const broken = await validate('{% user %}{{ inputs.photo }}{% enduser %}\n{% system %}s{% endsystem %}');
      expect(broken.status).toBe(200);
      expect(broken.body.data).toMatchObject({
        valid: false,
        errors: [{ message: 'the system block must come before the other blocks', line: 2, column: 1 }],
        variables: ['inputs.photo'],
      });
      const fine = await validate(CHAT_TEMPLATE.replace('{{ inputs.text }}', '{{ inputs.text }} {{ inputs.photo }}'));
      expect(fine.body.data).toMatchObject({ valid: true, errors: [], variables: ['inputs.text', 'inputs.photo'] });
    });
  });

  describe('each provider receives the roles natively', () => {
    const chatEndpoint = (llmModel: string) =>
      endpointWithPrompt(t, tenant.admin, { template: CHAT_TEMPLATE, llmModel, maxTokens: 50 });

    const EXPECTED = (system: string, assistant: string) => [
      { role: system, parts: ['You answer in one word.'] },
      { role: 'user', parts: ['Capital of France?'] },
      { role: assistant, parts: ['Paris'] },
      { role: 'user', parts: ['Capital of Italy?'] },
    ];

    it('OpenAI: system, user and assistant items of the Responses input', async () => {
      const { endpoint } = await chatEndpoint('gpt-4o-mini');
      fake.reply({ text: 'Rome' });
      const res = await execute(endpoint.path, { text: 'Capital of Italy?' });
      expect([res.status, res.body]).toEqual([200, 'Rome']);
      const sent = fake.last();
      expect(sent.route).toBe('openai.responses');
      expect(sent.body.input[0]).toMatchObject({ role: 'system', content: 'You answer in one word.' });
      expect(receivedMessages(sent)).toEqual(EXPECTED('system', 'assistant'));
    });

    it('Anthropic: the system message in `system`, the turns in `messages`', async () => {
      const { endpoint } = await chatEndpoint('claude-sonnet-4-5');
      fake.reply({ text: 'Rome' });
      expect((await execute(endpoint.path, { text: 'Capital of Italy?' })).status).toBe(200);
      const sent = fake.last();
      expect(sent.route).toBe('anthropic.messages');
      expect(sent.body.system).toEqual([{ type: 'text', text: 'You answer in one word.' }]);
      expect(sent.body.messages.map((message: { role: string }) => message.role)).toEqual([
        'user',
        'assistant',
        'user',
      ]);
      expect(receivedMessages(sent)).toEqual(EXPECTED('system', 'assistant'));
    });

    it('Google: the system message in `systemInstruction`, the turns in `contents` (the assistant as `model`)', async () => {
      const { endpoint } = await chatEndpoint('gemini-2.5-flash');
      fake.reply({ text: 'Rome' });
      expect((await execute(endpoint.path, { text: 'Capital of Italy?' })).status).toBe(200);
      const sent = fake.last();
      expect(sent.route).toBe('google.generateContent');
      expect(sent.body.systemInstruction).toEqual({ parts: [{ text: 'You answer in one word.' }] });
      expect(receivedMessages(sent)).toEqual(EXPECTED('system', 'model'));
    });

    it('OpenAI-compatible: system, user and assistant chat messages', async () => {
      const { endpoint } = await chatEndpoint('llama-test');
      fake.reply({ text: 'Rome' });
      expect((await execute(endpoint.path, { text: 'Capital of Italy?' })).status).toBe(200);
      const sent = fake.last();
      expect(sent.route).toBe('openai.chat');
      expect(receivedMessages(sent)).toEqual(EXPECTED('system', 'assistant'));
    });

    it('a streamed call sends the same messages', async () => {
      const { endpoint } = await chatEndpoint('claude-sonnet-4-5');
      fake.reply({ text: 'Rome', stream: { chunks: 2 } });
      const res = await execute(endpoint.path, { text: 'Capital of Italy?' }, { accept: 'text/event-stream' }).buffer(
        true,
      );
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(fake.last().body.stream).toBe(true);
      expect(receivedMessages(fake.last())).toEqual(EXPECTED('system', 'assistant'));
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log).toMatchObject({ streamed: true, renderedMessages: CHAT_MESSAGES });
    });

    it('a template without blocks is one user message of the whole text, as before', async () => {
      const { endpoint } = await endpointWithPrompt(t, tenant.admin, {
        template: 'Say {{ inputs.text }}',
        llmModel: 'claude-sonnet-4-5',
      });
      fake.reply({ text: 'ok' });
      const res = await execute(endpoint.path, { text: 'hi' });
      expect(res.status).toBe(200);
      expect(fake.last().body.system).toBeUndefined();
      expect(receivedMessages(fake.last())).toEqual([{ role: 'user', parts: ['Say hi'] }]);
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log).toMatchObject({ renderedPrompt: 'Say hi', renderedMessages: [{ role: 'user', content: 'Say hi' }] });
    });
  });

  describe('renderedMessages', () => {
    it('are in the log detail beside the whole rendered text, and in a test run', async () => {
      const { endpoint, prompt } = await endpointWithPrompt(t, tenant.admin, {
        template: CHAT_TEMPLATE,
        llmModel: 'gpt-4o-mini',
      });
      fake.reply({ text: 'Rome' });
      const res = await execute(endpoint.path, { text: 'Capital of Italy?' });
      expect(res.status).toBe(200);
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log.renderedMessages).toEqual(CHAT_MESSAGES);
      expect(log.renderedPrompt).toBe('\nYou answer in one word.\nCapital of France?\nParis\n\nCapital of Italy?\n\n');

      fake.reply({ text: 'Rome' });
      const run = await t.http
        .post(`/admin/v1/endpoints/${endpoint.id}/test`)
        .set(auth(tenant.admin))
        .send({ promptId: prompt.id, inputs: { text: 'Capital of Italy?' } });
      expect(run.status).toBe(200);
      expect(run.body.data.renderedMessages).toEqual(CHAT_MESSAGES);
      expect(run.body.data.renderedPrompt).toBe(log.renderedPrompt);
      const runLog = await t.http.get(`/admin/v1/logs/${run.body.data.logId}`).set(auth(tenant.admin));
      expect(runLog.body.data).toMatchObject({ source: 'TestPage', renderedMessages: CHAT_MESSAGES });
    });

    it('a cached answer keeps them, and a template making other messages from the same body misses the cache', async () => {
      const endpoint = await createEndpoint(t, tenant.admin, {
        inputs: [{ name: 'text', dataType: 'string', isRequired: true }],
        cacheEnabled: true,
        cacheDurationSeconds: 300,
      });
      const prompt = await createPrompt(t, tenant.admin, endpoint.id, {
        template: 'Be brief. {{ inputs.text }}',
        llmModel: 'mock-echo',
      });
      const body = { text: 'Why?' };
      const first = await execute(endpoint.path, body);
      expect([first.status, first.headers['x-cache']]).toEqual([200, 'MISS']);
      expect((await execute(endpoint.path, body)).headers['x-cache']).toBe('HIT');

      const updated = await t.http
        .put(`/admin/v1/prompts/${prompt.id}`)
        .set(auth(tenant.admin))
        .send({ template: '{% system %}Be brief.{% endsystem %} {% user %}{{ inputs.text }}{% enduser %}' });
      expect(updated.status).toBe(200);
      const second = await execute(endpoint.path, body);
      expect([second.status, second.headers['x-cache']]).toEqual([200, 'MISS']);
      const hit = await execute(endpoint.path, body);
      expect(hit.headers['x-cache']).toBe('HIT');

      const missLog = await logOf(t, tenant.admin, first.headers['x-request-id']);
      const chatLog = await logOf(t, tenant.admin, hit.headers['x-request-id']);
      expect(missLog.renderedMessages).toEqual([{ role: 'user', content: 'Be brief. Why?' }]);
      expect(chatLog).toMatchObject({
        cached: true,
        renderedPrompt: 'Be brief. Why?',
        renderedMessages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Why?' },
        ],
      });
    });
  });

  describe('images in place', () => {
    const imageEndpoint = (template: string, llmModel: string) =>
      endpointWithPrompt(
        t,
        tenant.admin,
        { template, llmModel },
        {
          inputs: [
            { name: 'question', dataType: 'string' },
            { name: 'photo', dataType: 'image' },
            { name: 'sketch', dataType: 'image' },
          ],
        },
      );

    it('an image output by the template is an image part at its place, never its data URI as text', async () => {
      const template =
        '{% system %}Describe images.{% endsystem %}\n' +
        '{% user %}First this: {{ inputs.photo }} then answer: {{ inputs.question }}{% enduser %}';
      const { endpoint } = await imageEndpoint(template, 'claude-sonnet-4-5');
      fake.reply({ text: 'A dot.' });
      const res = await execute(endpoint.path, { question: 'What is it?', photo: PNG_URI });
      expect(res.status).toBe(200);
      const sent = fake.last();
      expect(JSON.stringify(sent.body)).not.toContain('data:image/png');
      expect(sent.body.messages).toEqual([
        {
          role: 'user',
          content: [
            expect.objectContaining({ type: 'text', text: 'First this: ' }),
            expect.objectContaining({
              type: 'image',
              source: { type: 'base64', media_type: 'image/png', data: FAKE_PNG },
            }),
            expect.objectContaining({ type: 'text', text: ' then answer: What is it?' }),
          ],
        },
      ]);
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log.renderedPrompt).toBe('Describe images.\nFirst this: [image photo] then answer: What is it?');
      expect(log.renderedMessages).toEqual([
        { role: 'system', content: 'Describe images.' },
        { role: 'user', content: 'First this: [image photo] then answer: What is it?' },
      ]);
    });

    it('an image the template does not output is attached at the end of the last user message', async () => {
      const template =
        '{% user %}Example: {{ inputs.photo }}{% enduser %}{% assistant %}A cat.{% endassistant %}' +
        '{% user %}{{ inputs.question }}{% enduser %}';
      const { endpoint } = await imageEndpoint(template, 'gpt-4o-mini');
      fake.reply({ text: 'A dog.' });
      const res = await execute(endpoint.path, { question: 'And this one?', photo: PNG_URI, sketch: PNG_URI });
      expect(res.status).toBe(200);
      expect(receivedMessages(fake.last())).toEqual([
        { role: 'user', parts: ['Example: ', { image: 'image/png' }] },
        { role: 'assistant', parts: ['A cat.'] },
        { role: 'user', parts: ['And this one?', { image: 'image/png' }] },
      ]);
      expect(JSON.stringify(fake.last().body)).not.toMatch(/"(input_)?text":"[^"]*data:image/);
    });

    it('without blocks, the text has no data URI and unplaced images follow it', async () => {
      const { endpoint } = await imageEndpoint('{{ inputs.question }} {{ inputs.photo }} the end', 'gemini-2.5-flash');
      fake.reply({ text: 'ok' });
      const res = await execute(endpoint.path, { question: 'Compare', photo: PNG_URI, sketch: PNG_URI });
      expect(res.status).toBe(200);
      expect(receivedMessages(fake.last())).toEqual([
        { role: 'user', parts: ['Compare ', { image: 'image/png' }, ' the end', { image: 'image/png' }] },
      ]);
      const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
      expect(log.renderedPrompt).toBe('Compare [image photo] the end');
    });
  });

  it('the few-shot template of the API guide sends and logs what the guide says', async () => {
    const template = [
      '{% system %}You name the animal in a picture in one word.{% endsystem %}',
      '{% user %}What animal is this? {{ inputs.example }}{% enduser %}',
      '{% assistant %}Cat{% endassistant %}',
      '{% user %}{{ inputs.question | default: "And this one?" }} {{ inputs.photo }}{% enduser %}',
    ].join('\n');
    const { endpoint } = await endpointWithPrompt(
      t,
      tenant.admin,
      { template, llmModel: 'gpt-4o-mini' },
      {
        inputs: [
          { name: 'question', dataType: 'string' },
          { name: 'example', dataType: 'image' },
          { name: 'photo', dataType: 'image' },
        ],
      },
    );
    fake.reply({ text: 'Dog' });
    const res = await execute(endpoint.path, { example: PNG_URI, photo: PNG_URI });
    expect([res.status, res.body]).toEqual([200, 'Dog']);
    expect(receivedMessages(fake.last())).toEqual([
      { role: 'system', parts: ['You name the animal in a picture in one word.'] },
      { role: 'user', parts: ['What animal is this? ', { image: 'image/png' }] },
      { role: 'assistant', parts: ['Cat'] },
      { role: 'user', parts: ['And this one? ', { image: 'image/png' }] },
    ]);
    const log = await logOf(t, tenant.admin, res.headers['x-request-id']);
    expect(log.renderedMessages).toEqual([
      { role: 'system', content: 'You name the animal in a picture in one word.' },
      { role: 'user', content: 'What animal is this? [image example]' },
      { role: 'assistant', content: 'Cat' },
      { role: 'user', content: 'And this one? [image photo]' },
    ]);
  });
});
