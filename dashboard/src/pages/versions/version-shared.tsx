import { useState } from 'react';
import { Link } from 'wouter';
import { api, type Schemas, unwrap } from '../../api/client';
import { navigate } from '../../router';
import { useWriteBlock } from '../../session';
import { Button, Problems } from '../../ui/controls';

export type Version = Schemas['PromptVersionResponse'];
export type Prompt = Schemas['PromptResponse'];
export type VersionedSetting = Schemas['SettingChangeResponse']['setting'];

/** The settings a version records besides its template, in the order they are shown. */
export const VERSIONED_SETTINGS: { setting: VersionedSetting; label: string }[] = [
  { setting: 'llmModel', label: 'Model' },
  { setting: 'temperature', label: 'Temperature' },
  { setting: 'maxTokens', label: 'Max tokens' },
  { setting: 'customParameters', label: 'Custom parameters' },
  { setting: 'retries', label: 'Retries' },
  { setting: 'fallbackModels', label: 'Fallback models' },
];

export function settingLabel(setting: VersionedSetting): string {
  return VERSIONED_SETTINGS.find((entry) => entry.setting === setting)?.label ?? setting;
}

/** A setting's value as text: numbers and names as they are, custom parameters and fallback models as compact JSON. */
export function formatSettingValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : JSON.stringify(value);
  if (typeof value === 'object') return Object.keys(value).length === 0 ? '{} (none)' : JSON.stringify(value);
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Whether two setting values are the same, object keys in any order. */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a, sortedKeys) === JSON.stringify(b, sortedKeys);
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)));
}

/** What changed from `previous` to `version`: the template, then each setting that differs. */
export function changesFrom(previous: Version | undefined, version: Version): string[] {
  if (!previous) return ['First version'];
  const changes: string[] = [];
  if (previous.template !== version.template) changes.push('Template changed');
  for (const { setting, label } of VERSIONED_SETTINGS) {
    if (!sameValue(previous[setting], version[setting])) {
      changes.push(`${label} ${formatSettingValue(previous[setting])} → ${formatSettingValue(version[setting])}`);
    }
  }
  return changes.length > 0 ? changes : ['No change in content'];
}

export function versionsPath(endpointId: string, promptId: string): string {
  return `/endpoints/${endpointId}/prompts/${promptId}/versions`;
}

export function comparePath(endpointId: string, promptId: string, from: number, to: number, view?: string): string {
  return `${versionsPath(endpointId, promptId)}/compare?from=${from}&to=${to}${view ? `&view=${view}` : ''}`;
}

export function loadPrompt(promptId: string): Promise<Prompt> {
  return unwrap(api.GET('/admin/v1/prompts/{id}', { params: { path: { id: promptId } } }));
}

export function loadVersions(promptId: string): Promise<Version[]> {
  return unwrap(api.GET('/admin/v1/prompts/{id}/versions', { params: { path: { id: promptId } } }));
}

/** "← <prompt name>": back to the prompt's page. */
export function BackToPrompt({ endpointId, prompt }: { endpointId: string; prompt: Prompt | undefined }) {
  return (
    <Link href={`/endpoints/${endpointId}/prompts/${prompt?.id ?? ''}`}>
      ← {prompt ? `Prompt ${prompt.name}` : 'The prompt'}
    </Link>
  );
}

/** The badges of a version: its status when saved, current, archived by the history limit (with the reason spelled out). */
export function VersionBadges({ version, current }: { version: Version; current: boolean }) {
  return (
    <span className="version-badges">
      {current && <span className="badge current">Current version</span>}
      <span className={`badge ${version.status.toLowerCase()}`} title="The prompt's status when this version was saved">
        Saved as {version.status}
      </span>
      {version.archived && <span className="badge archived">Archived by the plan's history limit</span>}
    </span>
  );
}

/**
 * "Restore as a new Draft": creates a Draft prompt holding that version's content and opens it; the original prompt
 * and its history stay as they are. Disabled with the reason for a ReadOnly key.
 */
export function RestoreButton({
  promptId,
  versionNumber,
  kind = 'plain',
}: {
  promptId: string;
  versionNumber: number;
  kind?: 'plain' | 'primary';
}) {
  const blocked = useWriteBlock();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function restore() {
    setBusy(true);
    setError(null);
    try {
      const restored = await unwrap(
        api.POST('/admin/v1/prompts/{id}/versions/{versionNumber}/restore', {
          params: { path: { id: promptId, versionNumber } },
        }),
      );
      navigate(`/endpoints/${restored.endpointId}/prompts/${restored.id}`);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }
  return (
    <span className="restore">
      <Button
        kind={kind}
        blocked={blocked}
        disabled={busy}
        onClick={restore}
        title="Creates a new Draft prompt with this version's content; this prompt and its history stay unchanged."
      >
        {busy ? 'Restoring…' : 'Restore as a new Draft'}
        <span className="visually-hidden"> (version {versionNumber})</span>
      </Button>
      <Problems error={error} />
    </span>
  );
}
