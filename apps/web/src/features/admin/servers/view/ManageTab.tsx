import { useId, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  deleteServer,
  reinstallServer,
  suspendServer,
  unsuspendServer,
  type AdminServer,
} from '../../../../api/application/servers.ts';
import { httpErrorToHuman } from '../../../../api/errors.ts';
import { useGlobalStore } from '../../../../app/store.ts';
import { Button } from '../../../../components/Button.tsx';
import { ContentBox } from '../../../../components/ContentBox.tsx';
import { TextField } from '../../../../components/Field.tsx';
import { Modal } from '../../../../components/Modal.tsx';
import { ADMIN_FLASH, ConfirmAction } from '../../components/index.ts';
import { useAdminServer } from '../ServerViewLayout.tsx';
import { OutcomeMessage, refreshServers, useOutcome } from './outcome.tsx';

/** Manage: reinstall, suspend or unsuspend, delete and force delete, each confirmed. */
export function ServerManageTab() {
  const { t } = useTranslation('admin');
  const server = useAdminServer();
  const client = useQueryClient();
  const navigate = useNavigate();
  const { outcome, succeeded, clear } = useOutcome();
  const suspended = server.suspended || server.status === 'suspended';
  const name = server.name;

  const after = async (action: () => Promise<void>, message: string) => {
    clear();
    await action();
    await refreshServers(client);
    succeeded(message);
  };

  const remove = async (force: boolean) => {
    await deleteServer(server.id, force);
    client.removeQueries({ queryKey: ['admin', 'servers', String(server.id)] });
    await refreshServers(client);
    const store = useGlobalStore.getState();
    store.clearFlashes(ADMIN_FLASH);
    store.addFlash({ key: ADMIN_FLASH, type: 'success', message: t('server_view.manage.deleted', { name }) });
    void navigate('/admin/servers');
  };

  return (
    <div className="space-y-5">
      <OutcomeMessage outcome={outcome} />
      <div className="grid gap-5 lg:grid-cols-3">
        <Section
          title={t('server_view.manage.reinstall_title')}
          text={t('server_view.manage.reinstall_text')}
        >
          <ConfirmAction
            label={t('server_view.manage.reinstall')}
            title={t('server_view.manage.reinstall_confirm_title', { name })}
            message={t('server_view.manage.reinstall_confirm')}
            confirmLabel={t('server_view.manage.reinstall_confirm_button')}
            onConfirm={() => after(() => reinstallServer(server.id), t('server_view.manage.reinstalled'))}
          />
        </Section>

        <Section
          title={t('server_view.manage.suspend_title')}
          text={suspended ? t('server_view.manage.unsuspend_text') : t('server_view.manage.suspend_text')}
        >
          {suspended ? (
            <ConfirmAction
              variant="primary"
              label={t('server_view.manage.unsuspend')}
              title={t('server_view.manage.unsuspend_confirm_title', { name })}
              message={t('server_view.manage.unsuspend_confirm')}
              confirmLabel={t('server_view.manage.unsuspend_confirm_button')}
              onConfirm={() => after(() => unsuspendServer(server.id), t('server_view.manage.unsuspended'))}
            />
          ) : (
            <ConfirmAction
              label={t('server_view.manage.suspend')}
              title={t('server_view.manage.suspend_confirm_title', { name })}
              message={t('server_view.manage.suspend_confirm')}
              confirmLabel={t('server_view.manage.suspend_confirm_button')}
              onConfirm={() => after(() => suspendServer(server.id), t('server_view.manage.suspended'))}
            />
          )}
        </Section>

        <Section title={t('server_view.manage.delete_title')} text={t('server_view.manage.delete_text')}>
          <div className="space-y-3">
            <TypedDelete server={server} force={false} onConfirm={() => remove(false)} />
            <p className="text-sm text-zinc-400">{t('server_view.manage.force_delete_text')}</p>
            <TypedDelete server={server} force onConfirm={() => remove(true)} />
          </div>
        </Section>
      </div>
    </div>
  );
}

function Section({ title, text, children }: { title: string; text: string; children: ReactNode }) {
  return (
    <ContentBox title={title}>
      <div className="flex h-full flex-col gap-4">
        <p className="text-sm text-zinc-300">{text}</p>
        <div className="mt-auto">{children}</div>
      </div>
    </ContentBox>
  );
}

/**
 * Delete (or force delete) confirmed by typing the server's name: a slip of the mouse cannot
 * delete the wrong server. While it runs the dialog cannot be closed; a refusal is shown in words.
 */
function TypedDelete({
  server,
  force,
  onConfirm,
}: {
  server: AdminServer;
  force: boolean;
  onConfirm: () => Promise<void>;
}) {
  const { t } = useTranslation('admin');
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();
  const matches = typed.trim() === server.name.trim();
  const label = force ? t('server_view.manage.force_delete') : t('server_view.manage.delete');

  const close = () => {
    setOpen(false);
    setTyped('');
    setError(null);
  };

  const confirm = () => {
    if (!matches || busy) return;
    setBusy(true);
    setError(null);
    onConfirm().then(
      () => setBusy(false),
      (cause: unknown) => {
        setBusy(false);
        setError(httpErrorToHuman(cause));
      },
    );
  };

  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        {label}
      </Button>
      <Modal
        visible={open}
        onDismissed={close}
        showSpinnerOverlay={busy}
        title={
          force
            ? t('server_view.manage.force_delete_confirm_title', { name: server.name })
            : t('server_view.manage.delete_confirm_title', { name: server.name })
        }
      >
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            confirm();
          }}
          className="space-y-4"
        >
          <p className="text-sm text-zinc-300">
            {force ? t('server_view.manage.force_delete_confirm') : t('server_view.manage.delete_confirm')}
          </p>
          {/* Apart from the label (shown in capitals): the name as it must be typed, case and all. */}
          <p className="text-sm text-zinc-300">
            {t('server_view.manage.name_to_type')}{' '}
            <code
              id={nameId}
              className="rounded bg-zinc-800 px-1.5 py-0.5 font-mono text-zinc-100 select-all"
            >
              {server.name}
            </code>
          </p>
          <TextField
            label={t('server_view.manage.type_name')}
            aria-describedby={nameId}
            value={typed}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setTyped(event.target.value)}
          />
          {error && (
            <p
              role="alert"
              className="rounded-md border border-red-500/60 bg-red-950/60 px-3 py-2 text-sm text-red-100"
            >
              {error}
            </p>
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={close} disabled={busy}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="danger" disabled={!matches || busy}>
              {force
                ? t('server_view.manage.force_delete_confirm_button', { name: server.name })
                : t('server_view.manage.delete_confirm_button', { name: server.name })}
            </Button>
          </div>
        </form>
      </Modal>
    </>
  );
}
