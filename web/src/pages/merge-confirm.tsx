import { useState } from 'preact/hooks';
import { post, type Asset } from '../api';
import { ErrorMessage } from '../ui';

const describe = (asset: Asset) =>
  [...asset.addresses, ...asset.macAddresses, ...asset.hostnames].join(', ') || 'no address';

/**
 * The confirmation of a merge of the selected assets: which one is kept (the first selected,
 * unless another is chosen), and which are folded into it and deleted; then the merge itself.
 */
export function MergeConfirm({
  assets,
  onCancel,
  onMerged,
}: {
  assets: Asset[];
  onCancel: () => void;
  onMerged: (asset: Asset) => void;
}) {
  const [keptId, setKeptId] = useState(assets[0].id);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const kept = assets.find((asset) => asset.id === keptId) ?? assets[0];
  const folded = assets.filter((asset) => asset.id !== kept.id);

  const merge = async () => {
    setBusy(true);
    setError(null);
    try {
      onMerged(
        await post<Asset>(`/api/assets/${encodeURIComponent(kept.id)}/merge`, {
          from: folded.map((asset) => asset.id),
        }),
      );
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };

  return (
    <section class="card merge-confirm" aria-labelledby="merge-heading">
      <h2 id="merge-heading">Merge {assets.length} assets into one</h2>
      <fieldset class="checks">
        <legend>Keep</legend>
        <div>
          {assets.map((asset) => (
            <label key={asset.id}>
              <input
                type="radio"
                name="kept"
                value={asset.id}
                checked={asset.id === kept.id}
                onChange={() => setKeptId(asset.id)}
              />{' '}
              {asset.name} <span class="mono">{asset.id}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <ul class="merge-plan">
        <li data-fate="kept">
          <strong>{kept.name}</strong> is kept: its own fields stay, and it gains the others'
          addresses, MAC addresses, host names, services, sources, findings and relations.
        </li>
        {folded.map((asset) => (
          <li key={asset.id} data-fate="deleted">
            <strong>{asset.name}</strong> ({describe(asset)}) is folded into {kept.name} and
            deleted; its id leads later ingestions to {kept.name}.
          </li>
        ))}
      </ul>
      <ErrorMessage error={error} />
      <div class="actions">
        <button type="button" class="danger" disabled={busy} onClick={() => void merge()}>
          {busy ? 'Merging…' : `Merge into ${kept.name}`}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
