import {
  callsHref,
  describeTagFilters,
  filterTags,
  groupByTag,
  groupByTagOf,
  NO_TAG_FILTERS,
  OTHER_TAG_GROUP,
  parseTagFilter,
  sortedTags,
  tagFiltersOf,
  tagGroupLabel,
  tagQuery,
  tagSearch,
  tagText,
  withoutTagFilter,
  withTagFilter,
} from './rules';

describe('tag filters typed by hand', () => {
  it('reads key:value, splitting at the first colon so a value may hold colons', () => {
    expect(parseTagFilter('team:support')).toEqual({ tag: { key: 'team', value: 'support' } });
    expect(parseTagFilter(' url :https://a.example/b')).toEqual({
      tag: { key: 'url', value: 'https://a.example/b' },
    });
  });

  it('reads a bare key as the key with any value', () => {
    expect(parseTagFilter('env')).toEqual({ tag: { key: 'env', value: null } });
  });

  it('refuses a key the service would refuse, an empty or too long value, and nothing typed', () => {
    expect(parseTagFilter('Team:support')).toEqual({ problem: expect.stringContaining('lowercase letter') });
    expect(parseTagFilter('1team')).toEqual({ problem: expect.stringContaining('lowercase letter') });
    expect(parseTagFilter(`k${'x'.repeat(40)}`)).toEqual({ problem: expect.stringContaining('up to 39') });
    expect(parseTagFilter('team:')).toEqual({ problem: 'A tag value has 1 to 128 characters.' });
    expect(parseTagFilter(`team:${'é'.repeat(128)}`)).toEqual({ tag: { key: 'team', value: 'é'.repeat(128) } });
    expect(parseTagFilter(`team:${'v'.repeat(129)}`)).toEqual({ problem: expect.stringContaining('at most 128') });
    expect(parseTagFilter('  ')).toEqual({ problem: expect.stringContaining('key:value') });
  });
});

describe('tag filters in the route query', () => {
  it('keeps each valid filter once, in order, and leaves out hand-edited ones that are not filters', () => {
    const query = new URLSearchParams(
      'tag=team:support&tag=team:sales&tag=team:support&tag=Bad:x&tag=env&hasTag=env&hasTag=region:eu&hasTag=env',
    );
    expect(tagFiltersOf(query)).toEqual({ tag: ['team:support', 'team:sales'], hasTag: ['env'] });
    expect(tagFiltersOf(new URLSearchParams('status=error'))).toEqual(NO_TAG_FILTERS);
  });

  it('adds a filter once and removes it, for values and for bare keys', () => {
    const one = withTagFilter(NO_TAG_FILTERS, { key: 'team', value: 'support' });
    expect(one).toEqual({ tag: ['team:support'], hasTag: [] });
    expect(withTagFilter(one, { key: 'team', value: 'support' })).toBe(one);
    const two = withTagFilter(one, { key: 'env', value: null });
    expect(two).toEqual({ tag: ['team:support'], hasTag: ['env'] });
    expect(withoutTagFilter(two, { key: 'team', value: 'support' })).toEqual({ tag: [], hasTag: ['env'] });
    expect(withoutTagFilter(two, { key: 'env', value: null })).toEqual(one);
  });

  it('gives the API and links the filters, and nothing when there are none', () => {
    const filters = { tag: ['team:support'], hasTag: ['env'] };
    expect(tagQuery(filters)).toEqual({ tag: ['team:support'], hasTag: ['env'] });
    expect(tagQuery(NO_TAG_FILTERS)).toEqual({ tag: undefined, hasTag: undefined });
    expect(tagSearch(filters)).toBe('tag=team%3Asupport&hasTag=env');
    expect(tagSearch(NO_TAG_FILTERS)).toBe('');
  });

  it('links to the calls of an endpoint that the filters keep, and to the page alone without either', () => {
    const filters = { tag: ['team:support'], hasTag: [] };
    expect(callsHref('/logs', 'e1', filters)).toBe('/logs?endpointId=e1&tag=team%3Asupport');
    expect(callsHref('/logs', undefined, filters)).toBe('/logs?tag=team%3Asupport');
    expect(callsHref('/stats', 'e1', NO_TAG_FILTERS)).toBe('/stats?endpointId=e1');
    expect(callsHref('/stats', undefined, NO_TAG_FILTERS)).toBe('/stats');
  });

  it('shows the filters as tags and says what they ask in words', () => {
    const filters = { tag: ['team:support', 'team:sales', 'region:eu'], hasTag: ['env'] };
    expect(filterTags(filters).map(tagText)).toEqual(['team:support', 'team:sales', 'region:eu', 'env']);
    expect(describeTagFilters(filters)).toBe('team is support or sales, and region is eu, and env is set');
  });
});

describe('tags of a log row and by-tag groups', () => {
  it('orders a row’s tags by key, and an absent object is no tags', () => {
    expect(sortedTags({ team: 'a', env: 'prod', b: 'x' })).toEqual([
      { key: 'b', value: 'x' },
      { key: 'env', value: 'prod' },
      { key: 'team', value: 'a' },
    ]);
    expect(sortedTags({})).toEqual([]);
    expect(sortedTags(undefined)).toEqual([]);
  });

  it('names the null group as the other values and the untagged calls', () => {
    expect(tagGroupLabel('support')).toBe('support');
    expect(tagGroupLabel(null)).toBe(OTHER_TAG_GROUP);
  });

  it('reads the tag key of groupBy=tag:<key>, and nothing of other values', () => {
    expect(groupByTagOf('tag:team')).toBe('team');
    expect(groupByTagOf('prompt')).toBeUndefined();
    expect(groupByTagOf('tag:')).toBeUndefined();
    expect(groupByTagOf('tag:Team')).toBeUndefined();
    expect(groupByTagOf(null)).toBeUndefined();
  });

  it('writes groupBy=tag:<key> for a key, and nothing without one', () => {
    expect(groupByTag('team')).toBe('tag:team');
    expect(groupByTagOf(groupByTag('team') ?? null)).toBe('team');
    expect(groupByTag(undefined)).toBeUndefined();
  });
});
