import { createLiquidEngine } from './liquid-template';
import { classifyTemplate, renderedSizeBound, type TemplateShape } from './render-bound';

describe('render bound', () => {
  const engine = createLiquidEngine();
  const classify = (source: string) => classifyTemplate(engine, source);
  const bounded = (source: string): Extract<TemplateShape, { bounded: true }> => {
    const shape = classify(source);
    if (!shape.bounded) throw new Error(`expected ${source} to be bounded: ${shape.reason}`);
    return shape;
  };
  const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

  describe('classifyTemplate', () => {
    it('plain text: bounded by its bytes, no value read', () => {
      expect(classify('Hello, wörld')).toEqual({ bounded: true, literalBytes: bytes('Hello, wörld'), valueReads: 0 });
      expect(classify('')).toEqual({ bounded: true, literalBytes: 0, valueReads: 0 });
    });

    it('an output of an input: one read, plus the text of the output', () => {
      expect(classify('Say {{ inputs.x }}!')).toEqual({
        bounded: true,
        literalBytes: bytes('Say !') + bytes('{{ inputs.x }}'),
        valueReads: 1,
      });
      expect(classify('{{ inputs.list[0].name }}{{ inputs["a b"] }}{{ inputs.s.size }}')).toMatchObject({
        bounded: true,
        valueReads: 3,
      });
    });

    it('message blocks render their body once: they read nothing themselves', () => {
      expect(
        classify(
          '{% system %}Be brief.{% endsystem %}{% user %}{{ inputs.x }}{% enduser %}{% assistant %}Ok{% endassistant %}',
        ),
      ).toEqual({ bounded: true, literalBytes: bytes('Be brief.Ok') + bytes('{{ inputs.x }}'), valueReads: 1 });
    });

    it('allowed filters: default (its argument is a read), strip, lstrip, rstrip, strip_newlines, and case changes at three times', () => {
      expect(bounded('{{ inputs.x | default: "none" }}').valueReads).toBe(2);
      expect(bounded('{{ inputs.x | default: false, allow_false: true }}').valueReads).toBe(3);
      expect(bounded('{{ inputs.x | strip | lstrip | rstrip | strip_newlines }}').valueReads).toBe(1);
      expect(bounded('{{ inputs.x | upcase }}').valueReads).toBe(3);
      const source = '{{ inputs.x | downcase | capitalize }}';
      expect(bounded(source)).toEqual({ bounded: true, literalBytes: 9 * bytes(source), valueReads: 9 });
    });

    it('a filter with a variable argument: the argument is a read of its own', () => {
      expect(bounded('{{ inputs.x | default: inputs.y }}').valueReads).toBe(2);
      expect(classify('{{ inputs.x | default: (1..100000000) }}')).toMatchObject({ bounded: false });
      expect(classify('{{ inputs.x | strip: inputs.chars }}')).toEqual({
        bounded: false,
        reason: 'the strip filter takes no arguments in a bounded template',
      });
    });

    it.each([
      'for',
      'tablerow',
      'cycle',
      'assign',
      'capture',
      'increment',
      'decrement',
      'liquid',
      'echo',
      'raw',
      'render',
      'include',
      'break',
      'continue',
      '#',
    ])('the %s tag: unbounded', (tag) => {
      const shape = classify(`before {% ${tag} x %} after {% end${tag} %}`);
      expect(shape).toEqual({ bounded: false, reason: `the ${tag} tag can repeat, store or write values` });
    });

    const unboundedFilters = [
      'append',
      'prepend',
      'replace',
      'replace_first',
      'escape',
      'json',
      'newline_to_br',
      'join',
      'sort',
      'reverse',
    ];
    unboundedFilters.push('split', 'slice', 'truncate', 'url_encode', 'date', 'plus', 'size', 'first', 'map', 'where');
    it.each(unboundedFilters)('the %s filter: unbounded', (filter) => {
      expect(classify(`{{ inputs.x | ${filter}: "a" }}`)).toEqual({
        bounded: false,
        reason: `the ${filter} filter can make a value longer or take more than linear time`,
      });
      expect(classify(`{% if inputs.x | ${filter} %}y{% endif %}`)).toMatchObject({ bounded: false });
    });

    it('case changes with an argument are not the bounded filters', () => {
      expect(classify('{{ inputs.x | upcase: 1 }}')).toMatchObject({ bounded: false });
    });

    it('nested if, unless and case: each condition operand is a read', () => {
      const source = [
        '{% if inputs.a %}A{% if inputs.b == "x" and inputs.c %}{{ inputs.d }}{% elsif inputs.e %}E{% else %}F{% endif %}{% endif %}',
        '{% unless inputs.f contains "g" %}U{% endunless %}',
        '{% case inputs.h %}{% when "i", "j" or inputs.k %}W{% else %}Z{% endcase %}',
      ].join('');
      // a, b, "x", c, d, e, f, "g", h, "i", "j", inputs.k
      expect(bounded(source).valueReads).toBe(12);
    });

    it('whitespace control: the untrimmed text bounds the trimmed one', () => {
      const shape = bounded('  {%- if inputs.a -%}  x  {%- endif -%}  {{- inputs.b -}}  ');
      expect(shape.valueReads).toBe(2);
      expect(shape.literalBytes).toBeLessThanOrEqual(bytes('    x    ') + bytes('{{- inputs.b -}}'));
    });

    it('ranges and groups are unbounded wherever they appear', () => {
      expect(classify('{{ (1..100000000) }}')).toMatchObject({ bounded: false });
      expect(classify('{% if (1..100000000) contains 5 %}y{% endif %}')).toMatchObject({ bounded: false });
      expect(classify('{{ inputs[(1..100000000).size] }}')).toMatchObject({ bounded: false });
      expect(classify('{% case inputs.a %}{% when (1..100000000) %}y{% endcase %}')).toMatchObject({ bounded: false });
    });

    it('outputs inside raw are unbounded (raw is not a branch tag); inside a comment they are counted like any other', () => {
      expect(classify('{% raw %}{{ inputs.x }}{% endraw %}')).toEqual({
        bounded: false,
        reason: 'the raw tag can repeat, store or write values',
      });
      expect(bounded('{% comment %}{{ inputs.x }}{% endcomment %}').valueReads).toBe(1);
      expect(classify('{% comment %}{{ inputs.x | append: inputs.x }}{% endcomment %}')).toMatchObject({
        bounded: false,
      });
      expect(classify('{% comment %}{% for i in (1..9) %}{% endfor %}{% endcomment %}')).toMatchObject({
        bounded: false,
      });
    });

    it('a template that does not tokenize is unbounded', () => {
      expect(classify('{{ inputs.x')).toEqual({ bounded: false, reason: 'the template does not tokenize' });
      expect(classify('{% if inputs.x')).toEqual({ bounded: false, reason: 'the template does not tokenize' });
      expect(classify('{{ inputs.x | append }}')).toMatchObject({ bounded: false });
      expect(classify('{{ inputs.x | default "a" }}')).toEqual({
        bounded: false,
        reason: 'an output or a tag does not tokenize',
      });
      expect(classify('{% case inputs.a %}{% when | %}y{% endcase %}')).toEqual({
        bounded: false,
        reason: 'an output or a tag does not tokenize',
      });
    });
  });

  describe('renderedSizeBound', () => {
    const render = (source: string, inputs: Record<string, unknown>) => engine.parseAndRenderSync(source, { inputs });

    it('is the literal bytes when no value is read, whatever the inputs', () => {
      expect(renderedSizeBound(bounded('Hello'), { big: 'x'.repeat(10_000) })).toBe(5);
    });

    it('adds each read at the longer of 64 bytes and the JSON of the inputs', () => {
      const shape = bounded('{{ inputs.x }}{{ inputs.y }}');
      expect(renderedSizeBound(shape, { x: 1 })).toBe(shape.literalBytes + 2 * 64);
      const inputs = { x: 'é'.repeat(100), y: 'z' };
      expect(renderedSizeBound(shape, inputs)).toBe(shape.literalBytes + 2 * bytes(JSON.stringify(inputs)));
    });

    it('is at least what the template renders, for values of every kind', () => {
      const source =
        '{{ inputs.s | upcase }}-{{ inputs.list }}-{{ inputs.obj }}-{{ inputs.n }}-{{ inputs.none | default: "fallback text" }}{% if inputs.b %}{{ inputs.s | capitalize }}{% endif %}';
      const cases: Record<string, unknown>[] = [
        { s: 'ΐΐΐ', list: [['a', 1], true, null], obj: { k: 'v' }, n: 1e21, b: true },
        { s: 'quote " and \n newline', list: [], obj: {}, n: -0.000001, b: false },
        { s: 'İstanbul ŉ', list: ['x'.repeat(500)], obj: { deep: { deeper: [1, 2, 3] } }, n: 0 },
      ];
      const shape = bounded(source);
      for (const inputs of cases)
        expect(renderedSizeBound(shape, inputs)).toBeGreaterThanOrEqual(bytes(render(source, inputs)));
    });

    it('upper-casing can triple a value in UTF-8 bytes, which its weight covers', () => {
      const source = '{{ inputs.s | upcase }}';
      const inputs = { s: 'ΐ'.repeat(1000) };
      const rendered = render(source, inputs);
      expect(bytes(rendered)).toBe(3 * bytes(inputs.s));
      expect(renderedSizeBound(bounded(source), inputs)).toBeGreaterThanOrEqual(bytes(rendered));
    });
  });
});
