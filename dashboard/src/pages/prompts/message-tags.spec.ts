import { messageTagsOf } from './message-tags';

describe('messageTagsOf', () => {
  it('finds each role block from its opening tag to its closing tag, whitespace control included', () => {
    const text = '{% system %}Be brief.{% endsystem %}\n{%- user -%}\n{{ inputs.text }}\n{%- enduser -%}';
    const { tags, blocks } = messageTagsOf(text);
    expect(tags.map((tag) => [tag.role, tag.closing, text.slice(tag.from, tag.to)])).toEqual([
      ['system', false, '{% system %}'],
      ['system', true, '{% endsystem %}'],
      ['user', false, '{%- user -%}'],
      ['user', true, '{%- enduser -%}'],
    ]);
    expect(blocks.map((block) => [block.role, text.slice(block.open.from, block.close.to)])).toEqual([
      ['system', '{% system %}Be brief.{% endsystem %}'],
      ['user', '{%- user -%}\n{{ inputs.text }}\n{%- enduser -%}'],
    ]);
  });

  it('pairs an assistant turn between user turns, and lists a tag that pairs with nothing without a block', () => {
    const text = '{% user %}Hi{% enduser %}{% assistant %}Hello{% endassistant %}{% user %}Again';
    const { tags, blocks } = messageTagsOf(text);
    expect(tags).toHaveLength(5);
    expect(blocks.map((block) => block.role)).toEqual(['user', 'assistant']);
  });

  it('skips tags inside raw and comment, and words that only start like a role', () => {
    const text =
      '{% raw %}{% system %}{% endraw %}{% comment %}{% user %}{% endcomment %}{% users %}{% endassistants %}';
    expect(messageTagsOf(text)).toEqual({ tags: [], blocks: [] });
  });
});
