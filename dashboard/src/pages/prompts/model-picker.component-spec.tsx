/** @jest-environment jsdom */
import { screen, within } from '@testing-library/react';
import { useState } from 'react';
import { renderForUser } from '../../testing/dom';
import { ModelPicker } from './model-picker';
import type { Model } from './prompt-draft';

function model(
  id: string,
  provider: string,
  displayName: string,
  capabilities: Partial<Model['capabilities']> = {},
): Model {
  return {
    id,
    provider,
    displayName,
    contextWindow: 128000,
    maxOutputTokens: 8192,
    maxTemperature: provider === 'anthropic' ? 1 : 2,
    available: provider !== 'anthropic',
    isTestModel: false,
    capabilities: {
      reasoning: false,
      streaming: true,
      tools: true,
      jsonMode: true,
      vision: false,
      imageGeneration: false,
      ...capabilities,
    },
    pricing: { inputPerMillionTokens: 0.15, outputPerMillionTokens: 0.6, perImage: null, currency: 'USD' },
  };
}

const MODELS = [
  model('gpt-4o-mini', 'openai', 'GPT-4o mini', { vision: true }),
  model('gpt-5-pro', 'openai', 'GPT-5 Pro', { streaming: false }),
  model('gemini-2.5-flash', 'google', 'Gemini 2.5 Flash', { vision: true }),
  model('gemini-2.5-flash-preview-09-2025', 'google', 'Gemini 2.5 Flash'),
  model('claude-haiku-4-5', 'anthropic', 'Claude Haiku 4.5', { vision: true }),
];

function Picker({ initial = 'gpt-5-pro' }: { initial?: string }) {
  const [value, setValue] = useState(initial);
  return <ModelPicker models={MODELS} value={value} onChange={setValue} />;
}

const listed = () =>
  within(screen.getByRole('listbox', { name: 'Model' }))
    .getAllByRole('option')
    .map((option) => (option as HTMLOptionElement).value);

describe('ModelPicker', () => {
  it('lists every model with its provider and price, the callable ones first, ids where names are shared', () => {
    renderForUser(<Picker />);
    expect(listed()).toEqual([
      'gemini-2.5-flash',
      'gemini-2.5-flash-preview-09-2025',
      'gpt-4o-mini',
      'gpt-5-pro',
      'claude-haiku-4-5',
    ]);
    expect(
      screen.getByRole('option', {
        name: /^Gemini 2.5 Flash \(gemini-2.5-flash\) · google · \$0.15\/M in · \$0.6\/M out/,
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('option', { name: /^GPT-4o mini · openai/ })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: /Claude Haiku 4.5 .* · not available$/ })).toBeDisabled();
  });

  it('narrows the list as one types and by capability, keeping the chosen model listed', async () => {
    const { user } = renderForUser(<Picker />);
    await user.type(screen.getByRole('searchbox', { name: 'Search the catalog' }), 'flash');
    expect(listed()).toEqual(['gemini-2.5-flash', 'gemini-2.5-flash-preview-09-2025', 'gpt-5-pro']);
    expect(screen.getByText(/^2 of 5 models match\./)).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Image input' }));
    expect(listed()).toEqual(['gemini-2.5-flash', 'gpt-5-pro']);
    await user.clear(screen.getByRole('searchbox', { name: 'Search the catalog' }));
    expect(listed()).toEqual(['gemini-2.5-flash', 'gpt-4o-mini', 'gpt-5-pro', 'claude-haiku-4-5']);
  });

  it('goes from the search to the list with the down arrow, and Enter takes the only match', async () => {
    const { user } = renderForUser(<Picker />);
    const search = screen.getByRole('searchbox', { name: 'Search the catalog' });
    await user.type(search, 'anthropic');
    await user.keyboard('{Enter}');
    // An unavailable model cannot be taken.
    expect(screen.getByRole('listbox', { name: 'Model' })).toHaveValue('gpt-5-pro');
    await user.clear(search);
    await user.type(search, '4o mini{Enter}');
    expect(screen.getByRole('listbox', { name: 'Model' })).toHaveValue('gpt-4o-mini');
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('listbox', { name: 'Model' })).toHaveFocus();
  });
});
