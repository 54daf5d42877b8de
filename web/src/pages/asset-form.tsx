import { useState } from 'preact/hooks';
import { post, put, spacedValues, type Asset } from '../api';
import { ErrorMessage, Field } from '../ui';

const TEXT_FIELDS = [
  ['name', 'Name'],
  ['ip', 'IP address'],
  ['type', 'Type'],
  ['vendor', 'Vendor'],
  ['model', 'Model'],
  ['site', 'Site'],
  ['os_version', 'OS version'],
] as const;

type Draft = Record<(typeof TEXT_FIELDS)[number][0] | 'risk_score' | 'tags', string>;

/** Creates an asset, or edits the one given; the API's error is shown as it words it. */
export function AssetForm({
  asset,
  onSaved,
  onCancel,
}: {
  asset?: Asset;
  onSaved: (asset: Asset) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => {
    const start = {} as Draft;
    for (const [key] of TEXT_FIELDS) start[key] = asset?.[key] ?? '';
    start.risk_score =
      asset?.risk_score === null || asset === undefined ? '' : String(asset.risk_score);
    start.tags = asset?.tags.join(' ') ?? '';
    return start;
  });
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    // Emptied fields become null; an unparseable risk is sent as typed, for the API to name it.
    const body: Record<string, unknown> = {};
    for (const [key] of TEXT_FIELDS) {
      const value = draft[key].trim();
      if (asset === undefined && value === '') continue;
      body[key] = value === '' && key !== 'name' ? null : value;
    }
    const risk = draft.risk_score.trim();
    if (risk !== '') body.risk_score = /^\d+$/.test(risk) ? Number(risk) : risk;
    else if (asset !== undefined) body.risk_score = null;
    // The list typed replaces the asset's tags; the API names a bad one (tags[1] must be ...).
    const tags = spacedValues(draft.tags);
    if (asset !== undefined || tags.length > 0) body.tags = tags;
    try {
      const saved = asset
        ? await put<Asset>(`/api/assets/${encodeURIComponent(asset.id)}`, body)
        : await post<Asset>('/api/assets', body);
      onSaved(saved);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="asset-form" onSubmit={(event) => void submit(event)}>
      <div class="grid">
        {TEXT_FIELDS.map(([key, label]) => (
          <Field key={key} label={label}>
            <input
              name={key}
              required={key === 'name'}
              value={draft[key]}
              onInput={(event) => setDraft({ ...draft, [key]: event.currentTarget.value })}
            />
          </Field>
        ))}
        <Field label="Risk score" hint="0 to 100">
          <input
            name="risk_score"
            inputMode="numeric"
            value={draft.risk_score}
            onInput={(event) => setDraft({ ...draft, risk_score: event.currentTarget.value })}
          />
        </Field>
        <Field label="Tags" hint="separated by spaces; internet marks an asset facing the internet">
          <input
            name="tags"
            value={draft.tags}
            onInput={(event) => setDraft({ ...draft, tags: event.currentTarget.value })}
          />
        </Field>
      </div>
      <ErrorMessage error={error} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : asset ? 'Save changes' : 'Create asset'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
