import { createTwoFilesPatch, diffLines } from 'diff';
import { isDeepStrictEqual } from 'node:util';

/** A model tried when the prompt's own model fails; its omitted settings are the prompt's own. */
export interface FallbackModel {
  llmModel: string;
  temperature?: number;
  maxTokens?: number;
  customParameters?: Record<string, unknown>;
}

/** What a version records besides its number and status. */
export interface VersionContent {
  template: string;
  llmModel: string;
  temperature: number;
  maxTokens: number;
  customParameters: Record<string, unknown>;
  /** How many more times each model is tried after a failure that fails over (0–3). */
  retries: number;
  /** Tried in order once the prompt's own model has failed (at most 3). */
  fallbackModels: FallbackModel[];
}

export const VERSIONED_SETTINGS = [
  'llmModel',
  'temperature',
  'maxTokens',
  'customParameters',
  'retries',
  'fallbackModels',
] as const;
export type VersionedSetting = (typeof VERSIONED_SETTINGS)[number];

export interface TemplateDiffLine {
  type: 'added' | 'removed' | 'unchanged';
  /** Line number in the `from` template (null for added lines). */
  fromLine: number | null;
  /** Line number in the `to` template (null for removed lines). */
  toLine: number | null;
  text: string;
}

export interface SettingChange {
  setting: VersionedSetting;
  from: unknown;
  to: unknown;
}

export interface VersionComparison {
  templateChanged: boolean;
  templateDiff: TemplateDiffLine[];
  /** The same diff in unified format (`--- v1`, `+++ v2`, hunks). */
  unifiedDiff: string;
  changedSettings: SettingChange[];
}

/** Everything a version records; a save that changes none of it creates no version. */
export function contentChanged(before: VersionContent, after: VersionContent): boolean {
  return before.template !== after.template || changedSettings(before, after).length > 0;
}

export function changedSettings(from: VersionContent, to: VersionContent): SettingChange[] {
  return VERSIONED_SETTINGS.filter((setting) => !isDeepStrictEqual(from[setting], to[setting])).map((setting) => ({
    setting,
    from: from[setting],
    to: to[setting],
  }));
}

/** The dashboard's compare: a line diff of the two templates and the settings that differ. */
export function compareVersions(
  from: VersionContent & { versionNumber: number },
  to: VersionContent & { versionNumber: number },
): VersionComparison {
  const templateDiff: TemplateDiffLine[] = [];
  let fromLine = 1;
  let toLine = 1;
  for (const change of diffLines(from.template, to.template)) {
    for (const text of splitLines(change.value)) {
      if (change.added) templateDiff.push({ type: 'added', fromLine: null, toLine: toLine++, text });
      else if (change.removed) templateDiff.push({ type: 'removed', fromLine: fromLine++, toLine: null, text });
      else templateDiff.push({ type: 'unchanged', fromLine: fromLine++, toLine: toLine++, text });
    }
  }
  return {
    templateChanged: from.template !== to.template,
    templateDiff,
    unifiedDiff: createTwoFilesPatch(`v${from.versionNumber}`, `v${to.versionNumber}`, from.template, to.template),
    changedSettings: changedSettings(from, to),
  };
}

function splitLines(value: string): string[] {
  const lines = value.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
