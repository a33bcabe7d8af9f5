import { PromptError, ValidationError } from '../../../common/errors/app-error';
import { loadConfig } from '../../../config/app-config';
import { TemplateService } from './template.service';

describe('TemplateService', () => {
  const templates = new TemplateService(loadConfig({}, { renderTimeoutMs: 100, maxRenderedPromptBytes: 1000 }));
  afterAll(() => templates.onApplicationShutdown());

  it('renders with inputs in scope, and the default filter on missing ones', async () => {
    await expect(templates.render('p1:1', 'Hi {{ inputs.name | default: "there" }}', {})).resolves.toBe('Hi there');
    await expect(templates.render('p1:1', 'Hi {{ inputs.name | default: "there" }}', { name: 'Ann' })).resolves.toBe('Hi Ann');
    await expect(templates.render('p1:2', '{{ inputs.list }}|{{ inputs.n }}|{{ inputs.none }}', { list: ['a', ['b', 1]], n: 2.5, none: null })).resolves.toBe('ab1|2.5|');
  });

  it('parses again when a cache key comes with a different template', async () => {
    await expect(templates.render('p2:1', 'one {{ inputs.x }}', { x: 1 })).resolves.toBe('one 1');
    await expect(templates.render('p2:1', 'two {{ inputs.x }}', { x: 2 })).resolves.toBe('two 2');
  });

  it('turns render failures into a PromptError (422) saying why the template cannot run', async () => {
    const loop = templates.render('p3:1', '{% for a in (1..3000) %}{% for b in (1..3000) %}{% endfor %}{% endfor %}x', {});
    await expect(loop).rejects.toBeInstanceOf(PromptError);
    await expect(loop).rejects.toThrow("The prompt's template could not be rendered: the template took longer than 100 ms to render");
    const doubling = `{% assign s = "xxxxxxxx" %}${'{% assign s = s | append: s %}'.repeat(25)}{{ s }}`;
    await expect(templates.render('p4:1', doubling, {})).rejects.toThrow(/the template builds strings larger than its memory budget$/);
    await expect(templates.render('p5:1', '{% render "package.json" %}', {})).rejects.toBeInstanceOf(PromptError);
  });

  it('refuses output over the size limit in UTF-8 bytes, and accepts it at the limit', async () => {
    await expect(templates.render('p6:1', '{{ inputs.s }}', { s: 'x'.repeat(1000) })).resolves.toHaveLength(1000);
    await expect(templates.render('p6:1', '{{ inputs.s }}', { s: 'x'.repeat(1001) })).rejects.toThrow(/the rendered prompt is larger than 1000 bytes$/);
    await expect(templates.render('p6:1', '{{ inputs.s }}', { s: 'é'.repeat(501) })).rejects.toThrow(/larger than 1000 bytes$/);
    await expect(templates.render('p7:1', '{% for i in (1..100000) %}{{ inputs.s }}{% endfor %}', { s: 'ab' })).rejects.toThrow(/larger than 1000 bytes$/);
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
    await expect(templates.render('ok:1', 'fine {{ inputs.x }}', { x: 2 })).resolves.toBe('fine 2');
  });

  it('accepts savable templates and refuses syntax errors and oversized ones with a 400 naming template', () => {
    expect(() => templates.assertSavable('Hello {{ inputs.unknown }}')).not.toThrow();
    expect(() => templates.assertSavable('{% if x %}')).toThrow(expect.objectContaining({ field: 'template', message: expect.stringContaining('line 1, column 1') }));
    expect(() => templates.assertSavable('x'.repeat(102_401))).toThrow(ValidationError);
  });

  it('validates against the given input field names', () => {
    expect(templates.validate('{{ inputs.a }}{{ inputs.b }}', ['a'])).toMatchObject({ valid: false, variables: ['inputs.a', 'inputs.b'], unknownVariables: ['inputs.b'] });
  });
});
