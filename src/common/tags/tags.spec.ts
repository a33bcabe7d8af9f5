import { mergeTags, parseTagFilter, parseTagsHeader, tagsObjectProblems } from './tags';

const problemOf = (header: string) => {
  const parsed = parseTagsHeader(header);
  return parsed.problem;
};

describe('parseTagsHeader', () => {
  it('reads key=value pairs, spaces around entries ignored', () => {
    expect(parseTagsHeader('team=search, env=prod')).toEqual({ tags: { team: 'search', env: 'prod' } });
  });

  it('is no tags when the header is absent or blank', () => {
    expect(parseTagsHeader(undefined)).toEqual({ tags: {} });
    expect(parseTagsHeader('  ')).toEqual({ tags: {} });
  });

  it('percent-decodes values: %, comma, equals and UTF-8', () => {
    expect(parseTagsHeader('q=100%25,list=a%2Cb,eq=x%3Dy,city=K%C3%B6ln')).toEqual({
      tags: { q: '100%', list: 'a,b', eq: 'x=y', city: 'Köln' },
    });
  });

  it('refuses raw non-ASCII bytes (read as Latin-1, they would be stored garbled): they must be percent-encoded', () => {
    // 'Köln' sent as raw UTF-8 arrives as the Latin-1 reading of its bytes.
    expect(parseTagsHeader(`city=${Buffer.from('Köln').toString('latin1')}`)).toEqual({
      problem: 'X-Tags has a character that is not printable ASCII at position 7: percent-encode it as UTF-8',
    });
    expect(parseTagsHeader('a=1,\tb=2').problem).toMatch(/position 5/);
    expect(parseTagsHeader('city=K%C3%B6ln')).toEqual({ tags: { city: 'Köln' } });
  });

  it('splits an entry at its first equals sign', () => {
    expect(parseTagsHeader('expr=a=b')).toEqual({ tags: { expr: 'a=b' } });
  });

  it('accepts the longest key and value and exactly 10 tags', () => {
    const key = 'k' + 'a'.repeat(39);
    expect(parseTagsHeader(`${key}=${'v'.repeat(128)}`)).toEqual({ tags: { [key]: 'v'.repeat(128) } });
    const ten = Array.from({ length: 10 }, (_, i) => `t${i}=v`).join(',');
    expect(Object.keys((parseTagsHeader(ten) as { tags: object }).tags)).toHaveLength(10);
  });

  it('counts a value in characters after decoding', () => {
    expect(parseTagsHeader(`a=${'%C3%A9'.repeat(128)}`)).toEqual({ tags: { a: 'é'.repeat(128) } });
    expect(problemOf(`a=${'%25'.repeat(129)}`)).toBe("X-Tags: the value of tag 'a' is longer than 128 characters");
  });

  it.each([
    ['X-Tags is longer than 2048 bytes', 'x'.repeat(2049)],
    ["X-Tags has more than 10 tags, from 't10=v' on", Array.from({ length: 11 }, (_, i) => `t${i}=v`).join(',')],
    ['X-Tags has an empty entry: each tag is key=value', 'a=1,,b=2'],
    ["X-Tags: the tag 'team' is not key=value", 'a=1,team'],
    [
      "X-Tags: the key 'Team' is not a lowercase letter followed by up to 39 lowercase letters, digits, _, . or -",
      'Team=x',
    ],
    [
      "X-Tags: the key '1a' is not a lowercase letter followed by up to 39 lowercase letters, digits, _, . or -",
      '1a=x',
    ],
    [expect.stringContaining(`X-Tags: the key 'k${'a'.repeat(40)}' is not`), `k${'a'.repeat(40)}=x`],
    ["X-Tags: the key '' is not a lowercase letter followed by up to 39 lowercase letters, digits, _, . or -", '=x'],
    ["X-Tags: the tag 'team' has an empty value", 'team='],
    ["X-Tags: the tag 'team' is given more than once", 'team=a,team=b'],
    ["X-Tags: the value of tag 'team' has an invalid percent-encoding", 'team=100%'],
    ["X-Tags: the value of tag 'team' has an invalid percent-encoding", 'team=%E9'],
    ["X-Tags: the value of tag 'team' is longer than 128 characters", `team=${'v'.repeat(129)}`],
    ["X-Tags: the value of tag 'team' contains a NUL character", 'team=a%00b'],
  ])('answers %j', (message, header) => {
    expect(problemOf(header)).toEqual(message);
  });
});

describe('tagsObjectProblems', () => {
  it('accepts an object of string values', () => {
    expect(tagsObjectProblems({ team: 'search', 'a.b-c_d': 'x,y=z%' }, 'tags')).toEqual([]);
  });

  it('names each offending tag', () => {
    expect(tagsObjectProblems({ Team: 'x', env: 1, ok: '' }, 'tags')).toEqual([
      "tags: the key 'Team' is not a lowercase letter followed by up to 39 lowercase letters, digits, _, . or -",
      "tags: the value of tag 'env' must be a string",
      "tags: the tag 'ok' has an empty value",
    ]);
  });

  it('refuses what is not an object, and more than 10 tags', () => {
    expect(tagsObjectProblems(['a'], 'defaultTags')).toEqual([
      'defaultTags must be an object of tag values (strings) by key',
    ]);
    const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`t${i}`, 'v']));
    expect(tagsObjectProblems(eleven, 'tags')).toEqual(['tags has 11 tags; at most 10 are allowed']);
  });
});

describe('mergeTags', () => {
  it("keeps the key's defaults under the request's own tags", () => {
    expect(mergeTags({ team: 'a', env: 'prod' }, { team: 'b' })).toEqual({ team: 'b', env: 'prod' });
    expect(mergeTags(undefined, { a: '1' })).toEqual({ a: '1' });
    expect(mergeTags({ a: '1' }, {})).toEqual({ a: '1' });
  });
});

describe('parseTagFilter', () => {
  it('splits at the first colon', () => {
    expect(parseTagFilter('url:http://x')).toEqual({ key: 'url', value: 'http://x' });
    expect(parseTagFilter('team')).toBeNull();
    expect(parseTagFilter('Team:x')).toBeNull();
    expect(parseTagFilter('team:')).toBeNull();
  });
});
