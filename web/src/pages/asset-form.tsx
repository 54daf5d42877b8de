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

// The identity lists, edited as text: values separated by spaces, commas or line breaks.
const LIST_FIELDS = [
  ['addresses', 'Addresses', 'IPv4 or IPv6, the first is the IP address'],
  ['macAddresses', 'MAC addresses', 'any notation, e.g. aa:bb:cc:dd:ee:ff'],
  ['hostnames', 'Host names', 'DNS names'],
] as const;
type ListField = (typeof LIST_FIELDS)[number][0];

type Draft = Record<(typeof TEXT_FIELDS)[number][0] | ListField | 'risk_score' | 'tags', string>;

const listText = (values: readonly string[] | undefined) => (values ?? []).join(' ');
const listValues = (text: string) => text.split(/[\s,]+/).filter((value) => value !== '');

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
    for (const [key] of LIST_FIELDS) start[key] = listText(asset?.[key]);
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
    // A list is sent when it changed (or, on create, when given). The IP address follows the
    // addresses when only they changed: sent as it was, it would have to be their first.
    for (const [key] of LIST_FIELDS) {
      const values = listValues(draft[key]);
      if (asset === undefined ? values.length > 0 : values.join(' ') !== listText(asset[key]))
        body[key] = values;
    }
    if (asset !== undefined && body.addresses !== undefined && draft.ip.trim() === (asset.ip ?? ''))
      delete body.ip;
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
        {LIST_FIELDS.map(([key, label, hint]) => (
          <Field key={key} label={label} hint={hint}>
            <input
              name={key}
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
