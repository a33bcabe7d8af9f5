import { PromptError, ValidationError } from '../../../common/errors/app-error';
import { loadConfig } from '../../../config/app-config';
import { RenderPool } from './render-pool';
import { TemplateService } from './template.service';
import type { RenderedPrompt } from './message-blocks';

/** The whole rendered text of a render. */
const textOf = async (rendered: Promise<RenderedPrompt>): Promise<string> => (await rendered).text;

describe('TemplateService', () => {
  const templates = new TemplateService(loadConfig({}, { renderTimeoutMs: 100, maxRenderedPromptBytes: 1000 }));
  afterAll(() => templates.onApplicationShutdown());

  it('renders with inputs in scope, and the default filter on missing ones', async () => {
    await expect(textOf(templates.render('p1:1', 'Hi {{ inputs.name | default: "there" }}', {}))).resolves.toBe(
      'Hi there',
    );
    await expect(
      textOf(templates.render('p1:1', 'Hi {{ inputs.name | default: "there" }}', { name: 'Ann' })),
    ).resolves.toBe('Hi Ann');
    await expect(
      textOf(
        templates.render('p1:2', '{{ inputs.list }}|{{ inputs.n }}|{{ inputs.none }}', {
          list: ['a', ['b', 1]],
          n: 2.5,
          none: null,
        }),
      ),
    ).resolves.toBe('ab1|2.5|');
  });

  it('parses again when a cache key comes with a different template', async () => {
    await expect(textOf(templates.render('p2:1', 'one {{ inputs.x }}', { x: 1 }))).resolves.toBe('one 1');
    await expect(textOf(templates.render('p2:1', 'two {{ inputs.x }}', { x: 2 }))).resolves.toBe('two 2');
  });

  it('turns render failures into a PromptError (422) saying why the template cannot run', async () => {
    const loop = templates.render(
      'p3:1',
      '{% for a in (1..3000) %}{% for b in (1..3000) %}{% endfor %}{% endfor %}x',
      {},
    );
    await expect(loop).rejects.toBeInstanceOf(PromptError);
    await expect(loop).rejects.toThrow(
      "The prompt's template could not be rendered: the template took longer than 100 ms to render",
    );
    // A time budget far above what the doubling needs, so only the memory budget can stop it (on a loaded machine too).
    const roomy = new TemplateService(loadConfig({}, { renderTimeoutMs: 10_000, maxRenderedPromptBytes: 1000 }));
    try {
      const doubling = `{% assign s = "xxxxxxxx" %}${'{% assign s = s | append: s %}'.repeat(25)}{{ s }}`;
      await expect(textOf(roomy.render('p4:1', doubling, {}))).rejects.toThrow(
        /the template builds strings larger than its memory budget$/,
      );
    } finally {
      await roomy.onApplicationShutdown();
    }
    await expect(textOf(templates.render('p5:1', '{% render "package.json" %}', {}))).rejects.toBeInstanceOf(
      PromptError,
    );
  });

  it('refuses output over the size limit in UTF-8 bytes, and accepts it at the limit', async () => {
    // A time budget far above what the loop needs, so only the size limit can stop it (on a loaded machine too).
    const sized = new TemplateService(loadConfig({}, { renderTimeoutMs: 10_000, maxRenderedPromptBytes: 1000 }));
    try {
      await expect(textOf(sized.render('p6:1', '{{ inputs.s }}', { s: 'x'.repeat(1000) }))).resolves.toHaveLength(1000);
      await expect(textOf(sized.render('p6:1', '{{ inputs.s }}', { s: 'x'.repeat(1001) }))).rejects.toThrow(
        /the rendered prompt is larger than 1000 bytes$/,
      );
      await expect(textOf(sized.render('p6:1', '{{ inputs.s }}', { s: 'é'.repeat(501) }))).rejects.toThrow(
        /larger than 1000 bytes$/,
      );
      await expect(
        textOf(sized.render('p7:1', '{% for i in (1..100000) %}{{ inputs.s }}{% endfor %}', { s: 'ab' })),
      ).rejects.toThrow(/larger than 1000 bytes$/);
    } finally {
      await sized.onApplicationShutdown();
    }
  });

  it('keeps rendering for other callers after a thread hit its limits', async () => {
    const hostile = '{% for a in (1..3000) %}{% for b in (1..3000) %}{% endfor %}{% endfor %}';
    const results = await Promise.allSettled([
      templates.render('h:1', hostile, {}),
      templates.render('h:1', hostile, {}),
      templates.render('h:1', hostile, {}),
      templates.render('ok:1', 'fine {{ inputs.x }}', { x: 1 }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'fulfilled']);
    await expect(textOf(templates.render('ok:1', 'fine {{ inputs.x }}', { x: 2 }))).resolves.toBe('fine 2');
  });

  it('accepts savable templates and refuses syntax errors and oversized ones with a 400 naming template', () => {
    expect(() => templates.assertSavable('Hello {{ inputs.unknown }}')).not.toThrow();
    expect(() => templates.assertSavable('{% if x %}')).toThrow(
      expect.objectContaining({ field: 'template', message: expect.stringContaining('line 1, column 1') }),
    );
    expect(() => templates.assertSavable('x'.repeat(102_401))).toThrow(ValidationError);
  });

  it('validates against the given input field names', () => {
    expect(templates.validate('{{ inputs.a }}{{ inputs.b }}', ['a'])).toMatchObject({
      valid: false,
      variables: ['inputs.a', 'inputs.b'],
      unknownVariables: ['inputs.b'],
    });
  });

  describe('where a template renders', () => {
    const pooled = jest.spyOn(RenderPool.prototype, 'render');
    beforeEach(() => pooled.mockClear());
    afterAll(() => pooled.mockRestore());

    it('renders a bounded template here when its output bound is within the limit', async () => {
      const source =
        '{%- if inputs.formal -%}Dear {{ inputs.name | capitalize }}{%- else -%}Hi {{ inputs.name | default: "there" | strip }}{%- endif -%}';
      await expect(textOf(templates.render('b1:1', source, { formal: true, name: 'ann' }))).resolves.toBe('Dear Ann');
      await expect(textOf(templates.render('b1:1', source, { formal: false }))).resolves.toBe('Hi there');
      await expect(textOf(templates.render('b2:1', 'plain text', {}))).resolves.toBe('plain text');
      expect(pooled).not.toHaveBeenCalled();
    });

    it('sends loops, assigns and unbounded filters to a render thread', async () => {
      await expect(textOf(templates.render('u1:1', '{% for i in (1..3) %}{{ i }}{% endfor %}', {}))).resolves.toBe(
        '123',
      );
      await expect(
        textOf(templates.render('u2:1', '{% assign s = inputs.x | append: inputs.x %}{{ s }}', { x: 'ab' })),
      ).resolves.toBe('abab');
      await expect(
        textOf(templates.render('u3:1', '{{ inputs.list | sort | join: "," }}', { list: ['b', 'a'] })),
      ).resolves.toBe('a,b');
      expect(pooled.mock.calls.map(([task]) => task.cacheKey)).toEqual(['u1:1', 'u2:1', 'u3:1']);
    });

    it('sends a bounded template to a render thread when its bound with these inputs is over the limit', async () => {
      // The bound is the JSON of the inputs and the output's text: over 1000 bytes before the output is.
      await expect(textOf(templates.render('b3:1', '{{ inputs.s }}', { s: 'x'.repeat(900) }))).resolves.toHaveLength(
        900,
      );
      expect(pooled).not.toHaveBeenCalled();
      await expect(textOf(templates.render('b3:1', '{{ inputs.s }}', { s: 'x'.repeat(990) }))).resolves.toHaveLength(
        990,
      );
      await expect(textOf(templates.render('b3:1', '{{ inputs.s }}', { s: 'x'.repeat(1001) }))).rejects.toThrow(
        /the rendered prompt is larger than 1000 bytes$/,
      );
      expect(pooled).toHaveBeenCalledTimes(2);
    });

    it('classifies again when a cache key comes with a different template', async () => {
      await expect(textOf(templates.render('b4:1', 'one {{ inputs.x }}', { x: 1 }))).resolves.toBe('one 1');
      await expect(textOf(templates.render('b4:1', '{% for i in (1..2) %}two{% endfor %}', {}))).resolves.toBe(
        'twotwo',
      );
      expect(pooled).toHaveBeenCalledTimes(1);
    });

    it('leaves a bounded template that does not parse to a render thread, which reports its error', async () => {
      await expect(textOf(templates.render('b5:1', '{% if inputs.x %}open', { x: 1 }))).rejects.toThrow(
        /^The prompt's template could not be rendered: tag \{% if inputs.x %\} not closed/,
      );
      expect(pooled).toHaveBeenCalledTimes(1);
    });
  });
});
