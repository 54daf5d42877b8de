import { useState } from 'preact/hooks';
import {
  EVENT_TYPES,
  del,
  enc,
  get,
  post,
  put,
  query,
  request,
  type Delivery,
  type User,
  type Webhook,
  type WebhookFilter,
} from '../api';
import { ErrorMessage, Field, Pager, formatTime, useAsync, useTitle } from '../ui';

const PAGE_SIZE = 50;

interface Draft {
  url: string;
  events: string[];
  minScore: string;
  sources: string;
  sites: string;
  enabled: boolean;
}

const EMPTY: Draft = {
  url: '',
  events: ['finding.opened'],
  minScore: '',
  sources: '',
  sites: '',
  enabled: true,
};

const names = (text: string) =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');

function filterOf(draft: Draft): WebhookFilter | null {
  const filter: WebhookFilter = {};
  if (draft.minScore.trim() !== '') filter.minScore = Number(draft.minScore);
  if (names(draft.sources).length > 0) filter.sources = names(draft.sources);
  if (names(draft.sites).length > 0) filter.sites = names(draft.sites);
  return Object.keys(filter).length === 0 ? null : filter;
}

function draftOf(webhook: Webhook): Draft {
  return {
    url: webhook.url,
    events: webhook.events,
    minScore: webhook.filter?.minScore?.toString() ?? '',
    sources: webhook.filter?.sources?.join(', ') ?? '',
    sites: webhook.filter?.sites?.join(', ') ?? '',
    enabled: webhook.enabled,
  };
}

function WebhookForm({
  initial,
  label,
  onSave,
}: {
  initial: Draft;
  label: string;
  onSave: (draft: Draft) => Promise<boolean>;
}) {
  const [draft, setDraft] = useState(initial);
  const toggle = (type: string) =>
    setDraft({
      ...draft,
      events: draft.events.includes(type)
        ? draft.events.filter((event) => event !== type)
        : [...draft.events, type],
    });
  return (
    <form
      class="card"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        void onSave(draft).then((saved) => saved && setDraft(initial));
      }}
    >
      <Field label="URL" hint="https:// only">
        <input
          type="url"
          required
          value={draft.url}
          onInput={(event) => setDraft({ ...draft, url: event.currentTarget.value })}
        />
      </Field>
      <fieldset class="checks">
        <legend class="field-label">Events</legend>
        <div>
          {EVENT_TYPES.map((type) => (
            <label key={type}>
              <input
                type="checkbox"
                checked={draft.events.includes(type)}
                onChange={() => toggle(type)}
              />
              {type}
            </label>
          ))}
        </div>
      </fieldset>
      <Field label="Minimum score" hint="finding events only, 0 to 10">
        <input
          type="number"
          min="0"
          max="10"
          step="0.1"
          value={draft.minScore}
          onInput={(event) => setDraft({ ...draft, minScore: event.currentTarget.value })}
        />
      </Field>
      <Field label="Sources" hint="comma-separated; empty: any">
        <input
          value={draft.sources}
          onInput={(event) => setDraft({ ...draft, sources: event.currentTarget.value })}
        />
      </Field>
      <Field label="Sites" hint="comma-separated; empty: any">
        <input
          value={draft.sites}
          onInput={(event) => setDraft({ ...draft, sites: event.currentTarget.value })}
        />
      </Field>
      <fieldset class="checks">
        <div>
          <label>
            <input
              type="checkbox"
              checked={draft.enabled}
              onChange={(event) => setDraft({ ...draft, enabled: event.currentTarget.checked })}
            />
            Enabled
          </label>
        </div>
      </fieldset>
      <button type="submit">{label}</button>
    </form>
  );
}

export function WebhooksPage({ user, id }: { user: User; id?: string }) {
  useTitle('Webhooks');
  if (user.role !== 'admin') {
    return (
      <>
        <h1 tabIndex={-1}>Webhooks</h1>
        <p class="notice">Only administrators manage webhooks.</p>
      </>
    );
  }
  return id ? <WebhookPage id={id} /> : <WebhookList />;
}

function WebhookList() {
  const webhooks = useAsync(() => get<Webhook[]>('/api/webhooks'), []);
  const [error, setError] = useState<unknown>(null);
  const [secret, setSecret] = useState<string | null>(null);

  const create = async (draft: Draft) => {
    setError(null);
    try {
      const created = await post<Webhook>('/api/webhooks', {
        url: draft.url,
        events: draft.events,
        filter: filterOf(draft),
        enabled: draft.enabled,
      });
      setSecret(created.secret ?? null);
      webhooks.reload();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Webhooks</h1>
      <WebhookForm initial={EMPTY} label="Create webhook" onSave={create} />
      <ErrorMessage error={error ?? webhooks.error} />
      {secret && (
        <p role="status" class="notice">
          Signing secret, shown this once: <code>{secret}</code>
        </p>
      )}
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Events</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {(webhooks.data ?? []).map((webhook) => (
              <tr key={webhook.id}>
                <td>
                  <a href={`/webhooks/${enc(webhook.id)}`}>{webhook.url}</a>
                </td>
                <td>{webhook.events.join(', ')}</td>
                <td>
                  {webhook.enabled ? 'enabled' : 'disabled'}
                  {webhook.disabledReason && (
                    <span class="error-text"> ({webhook.disabledReason})</span>
                  )}
                </td>
                <td>{formatTime(webhook.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function WebhookPage({ id }: { id: string }) {
  const webhook = useAsync(() => get<Webhook>(`/api/webhooks/${enc(id)}`), [id]);
  const [page, setPage] = useState(1);
  const deliveries = useAsync(async () => {
    const answer = await request<Delivery[]>(
      'GET',
      `/api/webhooks/${enc(id)}/deliveries${query({ limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE })}`,
    );
    return {
      list: answer.body,
      total: Number(answer.headers.get('x-total-count') ?? answer.body.length),
    };
  }, [id, page]);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState('');
  const pages = Math.max(1, Math.ceil((deliveries.data?.total ?? 0) / PAGE_SIZE));

  const run = async (action: () => Promise<unknown>, message: string) => {
    setError(null);
    setDone('');
    try {
      await action();
      setDone(message);
      webhook.reload();
      deliveries.reload();
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    }
  };

  return (
    <>
      <p class="crumbs">
        <a href="/webhooks">Webhooks</a> ›
      </p>
      <h1 tabIndex={-1}>Webhook</h1>
      <ErrorMessage error={error ?? webhook.error ?? deliveries.error} />
      {done && <p role="status">{done}</p>}
      {webhook.data && (
        <>
          {webhook.data.disabledReason && (
            <p class="notice error-text">{webhook.data.disabledReason}</p>
          )}
          <WebhookForm
            key={webhook.data.updatedAt}
            initial={draftOf(webhook.data)}
            label="Save webhook"
            onSave={(draft) =>
              run(
                () =>
                  put(`/api/webhooks/${enc(id)}`, {
                    url: draft.url,
                    events: draft.events,
                    filter: filterOf(draft),
                    enabled: draft.enabled,
                  }),
                'Saved.',
              )
            }
          />
          <div class="actions">
            <button
              type="button"
              class="secondary"
              onClick={() => void run(() => post(`/api/webhooks/${enc(id)}/ping`), 'Ping queued.')}
            >
              Ping
            </button>
            <button
              type="button"
              class="danger"
              onClick={() => {
                if (confirm('Delete this webhook? Its pending deliveries are dropped.')) {
                  void run(() => del(`/api/webhooks/${enc(id)}`), 'Deleted.').then(
                    (deleted) => deleted && history.back(),
                  );
                }
              }}
            >
              Delete
            </button>
          </div>
        </>
      )}
      <section aria-labelledby="deliveries">
        <h2 id="deliveries">Deliveries</h2>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last attempt</th>
                <th scope="col">Answer</th>
                <th scope="col">Next attempt</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {(deliveries.data?.list ?? []).map((delivery) => (
                <tr key={delivery.id}>
                  <td>
                    {delivery.type} <code>{delivery.eventId}</code>
                  </td>
                  <td>
                    <span
                      class={`status status-${delivery.status === 'delivered' ? 'succeeded' : delivery.status}`}
                    >
                      {delivery.status}
                    </span>
                  </td>
                  <td>{delivery.attempts}</td>
                  <td>{formatTime(delivery.lastAttemptAt)}</td>
                  <td>{delivery.responseStatus ?? '—'}</td>
                  <td>{formatTime(delivery.nextAttemptAt)}</td>
                  <td>
                    <button
                      type="button"
                      class="secondary"
                      onClick={() =>
                        void run(
                          () =>
                            post(
                              `/api/webhooks/${enc(id)}/deliveries/${enc(delivery.id)}/redeliver`,
                            ),
                          'Queued again.',
                        )
                      }
                    >
                      Redeliver<span class="visually-hidden"> {delivery.eventId}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pager page={page} pages={pages} onPage={setPage} />
      </section>
    </>
  );
}
