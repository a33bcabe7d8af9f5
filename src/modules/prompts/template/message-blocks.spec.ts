import {
  analyzeTemplate,
  createLiquidEngine,
  DEFAULT_RENDER_LIMITS,
  messageBlockProblem,
  renderWithinLimits,
  syntaxProblem,
} from './liquid-template';
import { messageBlockProblems } from './message-blocks';

describe('message blocks', () => {
  const engine = createLiquidEngine();
  const render = (source: string, inputs: Record<string, unknown> = {}, imageFields: string[] = []) =>
    renderWithinLimits(engine, engine.parse(source), inputs, DEFAULT_RENDER_LIMITS, imageFields);
  const problems = (source: string) =>
    messageBlockProblems(engine.parse(source)).map(({ message, line, column }) => [line, column, message]);

  describe('rendering', () => {
    it('makes one user message of the whole text when the template has no blocks', () => {
      expect(render('Say {{ inputs.x }}\n', { x: 'hi' })).toEqual({
        text: 'Say hi\n',
        messages: [{ role: 'user', content: 'Say hi\n', parts: [{ type: 'text', text: 'Say hi\n' }] }],
      });
    });

    it('makes a message of each block, in order, trimmed, keeping the whole text', () => {
      const source =
        '{% system %}\nYou answer in French.\n{% endsystem %}\n' +
        '{% user %}Hello{% enduser %}\n{% assistant %} Bonjour {% endassistant %}\n' +
        '{% user %}\n{{ inputs.q }}\n{% enduser %}';
      const rendered = render(source, { q: 'Thanks' });
      expect(rendered.messages.map(({ role, content }) => ({ role, content }))).toEqual([
        { role: 'system', content: 'You answer in French.' },
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Bonjour' },
        { role: 'user', content: 'Thanks' },
      ]);
      expect(rendered.text).toBe('\nYou answer in French.\n\nHello\n Bonjour \n\nThanks\n');
    });

    it('drops a block that renders empty or only whitespace', () => {
      const source = '{% user %}{{ inputs.a }}{% enduser %}{% user %} {% if inputs.b %}b{% endif %} {% enduser %}';
      expect(render(source, { a: 'a' }).messages.map((message) => message.content)).toEqual(['a']);
    });

    it('leaves comments between blocks out of every message', () => {
      const source = '{% comment %}notes{% endcomment %}{% # inline %}{% user %}Hi{% enduser %}';
      expect(render(source).messages.map((message) => message.content)).toEqual(['Hi']);
    });

    it('places an image where the template outputs it, as a placeholder in the text and a part of the message', () => {
      const source = '{% user %}Look: {{ inputs.photo }} and say what it is{% enduser %}';
      const rendered = render(source, { photo: 'data:image/png;base64,AAAA' }, ['photo']);
      expect(rendered.text).toBe('Look: [image photo] and say what it is');
      expect(rendered.text).not.toContain('base64');
      expect(rendered.messages).toEqual([
        {
          role: 'user',
          content: 'Look: [image photo] and say what it is',
          parts: [
            { type: 'text', text: 'Look: ' },
            { type: 'image', field: 'photo' },
            { type: 'text', text: ' and say what it is' },
          ],
        },
      ]);
    });

    it('places an image once, at its first output, and writes it as its placeholder through filters', () => {
      const rendered = render(
        '{{ inputs.photo }}{{ inputs.photo }}{{ inputs.photo | upcase }}',
        { photo: 'data:image/png;base64,AAAA' },
        ['photo'],
      );
      expect(rendered.text).toBe('[image photo][IMAGE PHOTO]');
      expect(rendered.messages[0].parts).toEqual([
        { type: 'image', field: 'photo' },
        { type: 'text', text: '[IMAGE PHOTO]' },
      ]);
    });

    it('places an image in a user message even when a system or assistant block output it first', () => {
      const source =
        '{% system %}See {{ inputs.photo }}{% endsystem %}{% assistant %}{{ inputs.photo }}{% endassistant %}' +
        '{% user %}This: {{ inputs.photo }}{% enduser %}{% user %}Again {{ inputs.photo }}{% enduser %}';
      const rendered = render(source, { photo: 'data:image/png;base64,AAAA' }, ['photo']);
      expect(rendered.messages.map((message) => message.parts)).toEqual([
        [
          { type: 'text', text: 'See ' },
          { type: 'image', field: 'photo' },
        ],
        [{ type: 'image', field: 'photo' }],
        [
          { type: 'text', text: 'This: ' },
          { type: 'image', field: 'photo' },
        ],
        [{ type: 'text', text: 'Again' }],
      ]);
    });

    it('renders an absent image field as nothing', () => {
      expect(render('a{{ inputs.photo }}b', {}, ['photo']).messages[0].parts).toEqual([{ type: 'text', text: 'ab' }]);
    });

    it('renders blocks as their text alone through another emitter', () => {
      expect(engine.parseAndRenderSync('{% user %}Hi {{ n }}{% enduser %}', { n: 1 })).toBe('Hi 1');
    });
  });

  describe('rules', () => {
    it('accepts blocks with whitespace and comments around them, and a template without blocks', () => {
      expect(
        problems(' {% system %}s{% endsystem %}\n{% comment %}c{% endcomment %}\n{% user %}u{% enduser %}\n'),
      ).toEqual([]);
      expect(problems('Plain {{ inputs.x }} {% if inputs.x %}x{% endif %}')).toEqual([]);
    });

    it('reports text, outputs and other tags outside the blocks at their position', () => {
      expect(problems('{% user %}u{% enduser %}\n  stray\n{{ inputs.x }}{% if inputs.x %}x{% endif %}')).toEqual([
        [2, 3, expect.stringMatching(/^text outside message blocks/)],
        [3, 1, expect.stringMatching(/^an output outside message blocks/)],
        [3, 15, expect.stringMatching(/^the \{% if %\} tag outside message blocks/)],
      ]);
    });

    it('reports a nested block and a block inside another tag', () => {
      expect(problems('{% user %}a\n{% assistant %}b{% endassistant %}{% enduser %}')).toEqual([
        [2, 1, 'message blocks cannot be nested: {% assistant %} is inside {% user %}'],
      ]);
      expect(problems('{% if inputs.x %}\n  {% user %}a{% enduser %}\n{% endif %}')).toEqual([
        [2, 3, 'message blocks must be at the top level of the template, not in the {% if %} tag'],
      ]);
    });

    it('reports a second system block and a system block after another block', () => {
      expect(problems('{% user %}u{% enduser %}{% system %}s{% endsystem %}')).toEqual([
        [1, 25, 'the system block must come before the other blocks'],
      ]);
      expect(problems('{% system %}a{% endsystem %}\n{% system %}b{% endsystem %}')).toEqual([
        [2, 1, 'a template has at most one system block'],
      ]);
    });

    it('allows 100 blocks and reports the 101st', () => {
      const blocks = (count: number) => '{% user %}u{% enduser %}\n'.repeat(count);
      expect(problems(blocks(100))).toEqual([]);
      expect(problems(blocks(101))).toEqual([[101, 1, 'a template has at most 100 message blocks']]);
    });

    it('reports an unclosed block as a syntax error with its position', () => {
      expect(syntaxProblem(engine, 'x\n{% user %}hi')).toMatchObject({
        message: 'tag {% user %} not closed',
        line: 2,
        column: 1,
      });
    });

    it('is part of the validator report, with image fields among the variables', () => {
      const analysis = analyzeTemplate(engine, 'Hi\n{% user %}{{ inputs.photo }}{% enduser %}', ['photo']);
      expect(analysis).toMatchObject({ valid: false, variables: ['inputs.photo'], unknownVariables: [] });
      expect(analysis.errors).toEqual([
        { message: expect.stringMatching(/^text outside message blocks/), line: 1, column: 1 },
      ]);
      expect(messageBlockProblem(engine, '{% user %}ok{% enduser %}')).toBeNull();
    });
  });
});
