import type { ScoreStatsFigures } from '../scores/score-stats.service';
import { groupScores, promptScoreSummaries, restOf, scoreSummaryOf } from './stats-scores';

const figure = (promptId: string | null, tagValue: string | null, category: string, count: number, sum = 0) => ({
  promptId,
  tagValue,
  category,
  count,
  sum,
  sumOfSquares: sum,
});

describe('score summaries of the stats', () => {
  const topics: ScoreStatsFigures = {
    name: 'topic',
    dataType: 'categorical',
    categories: ['billing', 'bug'],
    figures: [figure('p1', 'a', 'billing', 2), figure('p1', 'b', 'retired', 1), figure(null, null, 'bug', 4)],
  };

  it('counts every category of the config, and a category no longer in it that still has scores', () => {
    const groups = groupScores(topics);
    expect(scoreSummaryOf(topics, groups.total)).toEqual({
      name: 'topic',
      count: 7,
      counts: { billing: 2, bug: 4, retired: 1 },
    });
    // Scores without a prompt count in the total only.
    expect([...groups.byPrompt.keys()]).toEqual(['p1']);
    expect(scoreSummaryOf(topics, undefined)).toEqual({ name: 'topic', count: 0, counts: { billing: 0, bug: 0 } });
  });

  it('gives the rest of the tag groups the total less the named values', () => {
    const groups = groupScores(topics);
    const rest = restOf(groups.total, [groups.byTagValue.get('a')]);
    expect(scoreSummaryOf(topics, rest)).toEqual({
      name: 'topic',
      count: 5,
      counts: { billing: 0, bug: 4, retired: 1 },
    });
  });

  it('gives prompt groups of a categorical score no interval or verdict, and a boolean one both', () => {
    expect(promptScoreSummaries(topics, [groupScores(topics).byPrompt.get('p1')])).toEqual([
      { name: 'topic', count: 3, counts: { billing: 2, bug: 0, retired: 1 } },
    ]);
    const helpful: ScoreStatsFigures = {
      name: 'helpful',
      dataType: 'boolean',
      categories: [],
      figures: [figure('p1', null, '', 10, 8)],
    };
    const [summary] = promptScoreSummaries(helpful, [groupScores(helpful).byPrompt.get('p1')]);
    expect(summary).toEqual({
      name: 'helpful',
      count: 10,
      mean: 0.8,
      ci95: [0.490162, 0.943318],
      verdict: 'inconclusive',
    });
  });
});
