import { ValidationError } from '../../../common/errors/app-error';
import { TemplateService } from './template.service';

describe('TemplateService', () => {
  const templates = new TemplateService();

  it('renders with inputs in scope, and the default filter on missing ones', async () => {
    await expect(templates.render('p1:1', 'Hi {{ inputs.name | default: "there" }}', {})).resolves.toBe('Hi there');
    await expect(templates.render('p1:1', 'Hi {{ inputs.name | default: "there" }}', { name: 'Ann' })).resolves.toBe('Hi Ann');
  });

  it('parses again when a cache key comes with a different template', async () => {
    await expect(templates.render('p2:1', 'one {{ inputs.x }}', { x: 1 })).resolves.toBe('one 1');
    await expect(templates.render('p2:1', 'two {{ inputs.x }}', { x: 2 })).resolves.toBe('two 2');
  });

  it('turns render failures into a ValidationError naming template', async () => {
    const failure = templates.render('p3:1', '{% for i in (1..100000000) %}{{ i }}{% endfor %}', {});
    await expect(failure).rejects.toBeInstanceOf(ValidationError);
    await expect(failure).rejects.toMatchObject({ field: 'template', message: expect.stringContaining('limit exceeded') });
    await expect(templates.render('p4:1', '{% render "package.json" %}', {})).rejects.toMatchObject({ field: 'template' });
  });

  it('accepts savable templates and refuses syntax errors and oversized ones with a 400 naming template', () => {
    expect(() => templates.assertSavable('Hello {{ inputs.unknown }}')).not.toThrow();
    expect(() => templates.assertSavable('{% if x %}')).toThrow(expect.objectContaining({ field: 'template', message: expect.stringContaining('line 1, column 1') }));
    expect(() => templates.assertSavable('x'.repeat(102_401))).toThrow(expect.objectContaining({ field: 'template' }));
  });

  it('validates against the given input field names', () => {
    expect(templates.validate('{{ inputs.a }}{{ inputs.b }}', ['a'])).toMatchObject({ valid: false, variables: ['inputs.a', 'inputs.b'], unknownVariables: ['inputs.b'] });
  });
});
