import { parseScoreFilter, scoreConditions, scoreFilterOf, scoreFilterProblem } from './score-filter';

describe('score filters', () => {
  it('parses name and name:value, splitting at the first colon', () => {
    expect(parseScoreFilter('helpful')).toEqual({ name: 'helpful' });
    expect(parseScoreFilter('tone:a:b')).toEqual({ name: 'tone', value: 'a:b' });
    for (const text of ['Helpful', 'helpful:', `helpful:${'x'.repeat(65)}`, ':x']) {
      expect(parseScoreFilter(text)).toBeNull();
      expect(scoreFilterProblem(text)).toMatch(/^each score must be a score name, or name:value/);
    }
  });

  it('groups values by name (either value matches) and drops a presence filter its name already constrains', () => {
    const filter = scoreFilterOf(['tone:formal', 'tone:casual', 'tone', 'helpful', 'tone:formal'])!;
    expect([...filter.values]).toEqual([['tone', ['formal', 'casual']]]);
    expect(filter.present).toEqual(['helpful']);
    expect(scoreFilterOf(undefined)).toBeUndefined();
  });

  it('matches a value by the score type it can be: true/false for booleans, a number, a category', () => {
    const params: unknown[] = ['tenant'];
    const [condition] = scoreConditions(scoreFilterOf(['helpful:true']), params);
    expect(condition).toContain(
      's.log_id = execution_logs.id AND s.tenant_id = execution_logs.tenant_id AND s.name = $2',
    );
    expect(params).toEqual(['tenant', 'helpful', 'true', 1]);
    const numeric: unknown[] = [];
    scoreConditions(scoreFilterOf(['stars:4.5']), numeric);
    expect(numeric).toEqual(['stars', '4.5', 4.5]);
    const category: unknown[] = [];
    scoreConditions(scoreFilterOf(['tone:formal']), category);
    expect(category).toEqual(['tone', 'formal']);
  });
});
