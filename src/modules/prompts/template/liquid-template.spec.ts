import {
  analyzeTemplate,
  createLiquidEngine,
  RenderFailure,
  renderWithinLimits,
  syntaxProblem,
  TEMPLATE_MAX_BYTES,
  templateSizeProblem,
} from './liquid-template';

describe('liquid template rules', () => {
  const engine = createLiquidEngine();

  describe('analyzeTemplate', () => {
    it('lists the inputs read, once each, in order of first use, ignoring loop locals and assigns', () => {
      const source =
        '{{ inputs.b }}{% for item in inputs.items %}{{ item.name }}{% endfor %}{% assign x = inputs.a %}{{ x }}{{ inputs.b }}';
      expect(analyzeTemplate(engine, source, ['a', 'b', 'items'])).toEqual({
        valid: true,
        errors: [],
        variables: ['inputs.b', 'inputs.items', 'inputs.a'],
        unknownVariables: [],
      });
    });

    it('treats bracket access with a literal as the field, and skips dynamic keys and the whole inputs object', () => {
      const analysis = analyzeTemplate(
        engine,
        '{{ inputs["topic"] }}{{ inputs }}{% assign k = "topic" %}{{ inputs[k] }}',
        ['topic'],
      );
      expect(analysis).toMatchObject({ valid: true, variables: ['inputs.topic'], unknownVariables: [] });
    });

    it('marks unknown inputs and other globals invalid with positions, default filter or not', () => {
      const analysis = analyzeTemplate(engine, 'x\n{{ inputs.nope | default: "d" }}{{ user.name }}', ['topic']);
      expect(analysis.valid).toBe(false);
      expect(analysis.unknownVariables).toEqual(['inputs.nope', 'user']);
      expect(analysis.errors.map((e) => [e.line, e.column])).toEqual([
        [2, 4],
        [2, 36],
      ]);
    });

    it('reports syntax errors with line and column and without the position suffix in the message', () => {
      const analysis = analyzeTemplate(engine, 'ok\n\n  {% if inputs.a %}', ['a']);
      expect(analysis).toEqual({
        valid: false,
        errors: [{ message: 'tag {% if inputs.a %} not closed', line: 3, column: 3 }],
        variables: [],
        unknownVariables: [],
      });
    });

    it('reports unknown filters and tags (strict filters)', () => {
      expect(syntaxProblem(engine, '{{ inputs.a | shout }}')).toMatchObject({
        message: 'undefined filter: shout',
        line: 1,
        column: 1,
      });
      expect(syntaxProblem(engine, '{% shout %}')?.message).toContain('not found');
    });

    it('refuses the tags that load templates or files', () => {
      for (const source of ['{% render "package.json" %}', '{% include "package.json" %}', '{% layout "base" %}']) {
        expect(syntaxProblem(engine, source)?.message).toContain('cannot load other templates or files');
      }
    });

    it('reports the size limit without a position', () => {
      const analysis = analyzeTemplate(engine, 'x'.repeat(TEMPLATE_MAX_BYTES + 1), []);
      expect(analysis.valid).toBe(false);
      expect(analysis.errors).toEqual([
        { message: expect.stringContaining('at most 102400 bytes'), line: null, column: null },
      ]);
    });
  });

  it('measures the size limit in UTF-8 bytes', () => {
    expect(templateSizeProblem('é'.repeat(TEMPLATE_MAX_BYTES / 2))).toBeNull();
    expect(templateSizeProblem(`${'é'.repeat(TEMPLATE_MAX_BYTES / 2)}x`)).toContain('102401');
  });

  describe('rendering with the engine configuration', () => {
    it('renders missing inputs empty and applies default to them', async () => {
      const rendered = await engine.parseAndRender(
        '[{{ inputs.a }}][{{ inputs.b | default: "B" }}]{% if inputs.c %}c{% endif %}',
        { inputs: {} },
      );
      expect(rendered).toBe('[][B]');
    });

    it('does not expose prototypes', async () => {
      await expect(
        engine.parseAndRender('{{ inputs.constructor }}{{ inputs.__proto__ }}', { inputs: {} }),
      ).resolves.toBe('');
    });

    it('stops runaway loops and allocations', async () => {
      await expect(
        engine.parseAndRender('{% for i in (1..100000000) %}{{ i }}{% endfor %}', { inputs: {} }),
      ).rejects.toThrow(/limit exceeded/);
      const doubling =
        '{% assign s = "xxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}{{ s | size }}';
      await expect(engine.parseAndRender(doubling, { inputs: {} })).rejects.toThrow(/limit exceeded/);
    });

    it('stops output at the byte limit while it grows, and names the limit', () => {
      // A time budget far above what the loop needs, so only the byte limit can stop it (on a loaded machine too).
      const limits = { timeoutMs: 10_000, maxOutputBytes: 10 };
      const generous = createLiquidEngine(limits);
      const render = (source: string, inputs: Record<string, unknown> = {}) =>
        renderWithinLimits(generous, generous.parse(source), inputs, limits);
      expect(render('{{ inputs.s }}', { s: '0123456789' }).text).toBe('0123456789');
      expect(() => render('{{ inputs.s }}', { s: 'ééééé€' })).toThrow(
        new RenderFailure('the rendered prompt is larger than 10 bytes'),
      );
      expect(() => render('{% for i in (1..1000000) %}x{% endfor %}')).toThrow(
        'the rendered prompt is larger than 10 bytes',
      );
    });

    it('reports the time limit in milliseconds', () => {
      const slow = engine.parse('{% for a in (1..3000) %}{% for b in (1..3000) %}{% endfor %}{% endfor %}');
      expect(() =>
        renderWithinLimits(
          createLiquidEngine({ timeoutMs: 5, maxOutputBytes: 100 }),
          slow,
          {},
          { timeoutMs: 5, maxOutputBytes: 100 },
        ),
      ).toThrow('the template took longer than 5 ms to render');
    });
  });
});
