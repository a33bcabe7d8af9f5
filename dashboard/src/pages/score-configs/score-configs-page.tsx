import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { useWriteBlock } from '../../session';
import { Button, ConfirmDialog, Loading, PageHeader, Problems } from '../../ui/controls';
import { formatDate } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { useAction } from '../../ui/use-action';
import { dataTypeLabel, describeValues, type ScoreConfig } from './rules';
import { ScoreConfigForm } from './score-config-form';
import './score-configs.css';

/**
 * The tenant's score configs: what applications and reviewers may score executions with. Create, edit and delete;
 * what the service refuses (a name taken, a config that scores already use) is shown as its message.
 */
export default function ScoreConfigsPage() {
  const blocked = useWriteBlock();
  const configs = useLoad(() => unwrap(api.GET('/admin/v1/score-configs')), []);
  /** The form on screen: a new config, one being edited, or none. */
  const [editing, setEditing] = useState<ScoreConfig | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ScoreConfig | null>(null);
  const removal = useAction();
  const [notice, setNotice] = useState<string | null>(null);

  async function remove() {
    if (!deleting) return;
    const done = await removal.run(() =>
      unwrap(api.DELETE('/admin/v1/score-configs/{id}', { params: { path: { id: deleting.id } } })),
    );
    if (done === undefined) return;
    setNotice(`Deleted the score config ${deleting.name}.`);
    setDeleting(null);
    configs.reload();
  }

  return (
    <section>
      <PageHeader title="Score configs">
        <Button
          kind="primary"
          blocked={blocked}
          disabled={editing !== null}
          onClick={() => {
            setNotice(null);
            setEditing('new');
          }}
        >
          New score config
        </Button>
      </PageHeader>
      <p className="muted">
        A score config declares what executions may be scored with: a name, and a boolean, a number in a range, or one
        of a list of categories. Applications send scores through the execution API; reviewers add them from a
        call&apos;s page in Logs. Once a score uses a config, its name and type stay fixed and it cannot be deleted.
      </p>
      <p role="status" className={notice ? 'notice' : 'visually-hidden'}>
        {notice}
      </p>

      {editing !== null && (
        <ScoreConfigForm
          key={editing === 'new' ? 'new' : editing.id}
          config={editing === 'new' ? undefined : editing}
          onCancel={() => setEditing(null)}
          onSaved={(saved) => {
            setNotice(
              editing === 'new' ? `Created the score config ${saved.name}.` : `Saved the score config ${saved.name}.`,
            );
            setEditing(null);
            configs.reload();
          }}
        />
      )}

      <Problems error={configs.error} />
      {!configs.data ? (
        !configs.error && <Loading what="the score configs" />
      ) : configs.data.length === 0 ? (
        <p className="empty">No score configs yet. Declare one to let applications and reviewers score executions.</p>
      ) : (
        <div className="table-wrap">
          <table className="score-configs">
            <caption className="visually-hidden">Score configs of this tenant, by name</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Values</th>
                <th scope="col">Description</th>
                <th scope="col">Changed</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {configs.data.map((config) => (
                <tr key={config.id} data-score-config={config.name}>
                  <th scope="row">
                    <code>{config.name}</code>
                  </th>
                  <td>{dataTypeLabel(config.dataType)}</td>
                  <td>{describeValues(config)}</td>
                  <td>{config.description || <span className="muted">—</span>}</td>
                  <td>{formatDate(config.updatedAt)}</td>
                  <td className="actions">
                    <Button
                      blocked={blocked}
                      onClick={() => {
                        setNotice(null);
                        setEditing(config);
                      }}
                    >
                      Edit<span className="visually-hidden"> {config.name}</span>
                    </Button>
                    <Button
                      kind="danger"
                      blocked={blocked}
                      onClick={() => {
                        setNotice(null);
                        removal.setError(null);
                        setDeleting(config);
                      }}
                    >
                      Delete<span className="visually-hidden"> {config.name}</span>
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <ConfirmDialog
        open={deleting !== null}
        title={`Delete the score config “${deleting?.name ?? ''}”?`}
        actionLabel="Delete score config"
        busy={removal.busy}
        error={removal.error}
        onCancel={() => setDeleting(null)}
        onConfirm={remove}
      >
        <p>
          Applications can no longer send <code>{deleting?.name}</code> scores. A config that scores already use cannot
          be deleted.
        </p>
      </ConfirmDialog>
    </section>
  );
}
