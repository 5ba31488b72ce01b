import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DATABASE_DEFAULT_REMOTE } from '@talon/shared/validation/databases';
import { listDatabaseHosts } from '../../../../api/application/databaseHosts.ts';
import {
  createServerDatabase,
  deleteServerDatabase,
  listServerDatabases,
  rotateServerDatabasePassword,
  type AdminServerDatabase,
} from '../../../../api/application/serverDatabases.ts';
import { httpErrorToHuman } from '../../../../api/errors.ts';
import { Button } from '../../../../components/Button.tsx';
import { ContentBox } from '../../../../components/ContentBox.tsx';
import { CopyOnClick } from '../../../../components/CopyOnClick.tsx';
import {
  ConfirmAction,
  DataTable,
  FormSelect,
  FormText,
  applyFieldErrors,
  type Column,
} from '../../components/index.ts';
import { useAdminServer } from '../ServerViewLayout.tsx';
import { databaseFieldForWire, databaseFormError, type DatabaseValues } from './databaseForm.ts';
import { OutcomeMessage, useOutcome } from './outcome.tsx';

function databasesKey(serverId: number) {
  return ['admin', 'servers', 'databases', serverId] as const;
}

/** Databases: the server's databases with their passwords, create on a host, rotate, delete. */
export function ServerDatabasesTab() {
  const { t } = useTranslation('admin');
  const server = useAdminServer();
  const client = useQueryClient();
  const { outcome, succeeded, clear } = useOutcome();
  const [revealed, setRevealed] = useState<number[]>([]);
  const databases = useQuery({
    queryKey: databasesKey(server.id),
    queryFn: () => listServerDatabases(server.id),
  });
  const reload = () => client.invalidateQueries({ queryKey: databasesKey(server.id) });

  const rotate = async (database: AdminServerDatabase) => {
    clear();
    await rotateServerDatabasePassword(server.id, database.id);
    await reload();
    setRevealed((list) => [...new Set([...list, database.id])]);
    succeeded(t('server_view.databases.rotated', { name: database.database }));
  };

  const remove = async (database: AdminServerDatabase) => {
    clear();
    await deleteServerDatabase(server.id, database.id);
    await reload();
    succeeded(t('server_view.databases.deleted', { name: database.database }));
  };

  const columns: Column<AdminServerDatabase>[] = [
    {
      id: 'database',
      header: t('server_view.databases.name'),
      cell: (db) => <span className="font-mono break-all">{db.database}</span>,
    },
    {
      id: 'username',
      header: t('server_view.databases.username'),
      cell: (db) => <span className="font-mono break-all">{db.username}</span>,
      hideBelow: 'md',
    },
    {
      id: 'host',
      header: t('server_view.databases.host'),
      cell: (db) =>
        db.host ? (
          <span>
            {db.host.name}{' '}
            <span className="text-zinc-400">
              ({db.host.host}:{db.host.port})
            </span>
          </span>
        ) : (
          `#${db.hostId}`
        ),
      hideBelow: 'lg',
    },
    {
      id: 'remote',
      header: t('server_view.databases.remote'),
      cell: (db) => <code>{db.remote}</code>,
      hideBelow: 'sm',
    },
    {
      id: 'password',
      header: t('server_view.databases.password'),
      cell: (db) => (
        <PasswordCell
          database={db}
          revealed={revealed.includes(db.id)}
          onToggle={() =>
            setRevealed((list) =>
              list.includes(db.id) ? list.filter((id) => id !== db.id) : [...list, db.id],
            )
          }
        />
      ),
    },
    {
      id: 'actions',
      header: t('server_view.databases.actions'),
      cell: (db) => (
        <div className="flex flex-wrap justify-end gap-2">
          <ConfirmAction
            variant="secondary"
            label={t('server_view.databases.rotate')}
            ariaLabel={t('server_view.databases.rotate_named', { name: db.database })}
            title={t('server_view.databases.rotate_title', { name: db.database })}
            confirmLabel={t('server_view.databases.rotate')}
            message={t('server_view.databases.rotate_message')}
            onConfirm={() => rotate(db)}
          />
          <ConfirmAction
            label={t('common.delete')}
            ariaLabel={t('server_view.databases.delete_named', { name: db.database })}
            title={t('server_view.databases.delete_title', { name: db.database })}
            confirmLabel={t('common.delete')}
            message={t('server_view.databases.delete_message', { name: db.database })}
            onConfirm={() => remove(db)}
          />
        </div>
      ),
      className: 'text-right',
    },
  ];

  return (
    <div className="space-y-5">
      <ContentBox title={t('server_view.databases.title')}>
        <div className="space-y-3">
          <DataTable
            label={t('server_view.databases.table')}
            columns={columns}
            rows={databases.data}
            rowKey={(db) => db.id}
            isLoading={databases.isPending}
            error={databases.error}
            onRetry={() => void databases.refetch()}
            emptyText={t('server_view.databases.empty')}
          />
          <OutcomeMessage outcome={outcome} />
        </div>
      </ContentBox>
      <NewDatabaseForm
        serverId={server.id}
        onCreated={async (database) => {
          clear();
          await reload();
          setRevealed((list) => [...list, database.id]);
          succeeded(t('server_view.databases.created', { name: database.database }));
        }}
      />
    </div>
  );
}

/** The password behind a reveal button; once shown, a click copies it. */
function PasswordCell({
  database,
  revealed,
  onToggle,
}: {
  database: AdminServerDatabase;
  revealed: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation('admin');
  if (database.password === null) return <span className="text-zinc-500">—</span>;
  return (
    <span className="flex flex-wrap items-center gap-2">
      {revealed ? (
        <CopyOnClick text={database.password} className="rounded font-mono break-all text-zinc-100">
          {database.password}
        </CopyOnClick>
      ) : (
        <span aria-hidden="true" className="font-mono text-zinc-500">
          {t('server_view.databases.hidden')}
        </span>
      )}
      <Button
        variant="secondary"
        className="px-2 py-0.5 text-xs"
        aria-label={
          revealed
            ? t('server_view.databases.hide', { name: database.database })
            : t('server_view.databases.reveal', { name: database.database })
        }
        onClick={onToggle}
      >
        {revealed ? t('server_view.databases.hide_short') : t('server_view.databases.reveal_short')}
      </Button>
    </span>
  );
}

function NewDatabaseForm({
  serverId,
  onCreated,
}: {
  serverId: number;
  onCreated: (database: AdminServerDatabase) => Promise<void>;
}) {
  const { t } = useTranslation('admin');
  // A refusal is shown beside the form's button; success in the list, where the new database is.
  const { outcome, failed, clear } = useOutcome();
  const hosts = useQuery({
    queryKey: ['admin', 'server-view', 'database-hosts'],
    queryFn: () => listDatabaseHosts({ perPage: 100 }),
  });
  const form = useForm<DatabaseValues>({
    defaultValues: { database: '', remote: DATABASE_DEFAULT_REMOTE, host: '' },
    resolver: (values) => databaseFormError(values),
  });
  const hostList = hosts.data?.items ?? [];
  const firstHost = hostList[0] ? String(hostList[0].id) : '';
  const { isSubmitting } = form.formState;

  const submit = async (values: DatabaseValues) => {
    clear();
    try {
      const database = await createServerDatabase(serverId, {
        database: values.database.trim(),
        remote: values.remote.trim(),
        host: Number(values.host || firstHost),
      });
      form.reset({ database: '', remote: DATABASE_DEFAULT_REMOTE, host: values.host });
      await onCreated(database);
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, databaseFieldForWire)) failed(error);
    }
  };

  return (
    <ContentBox title={t('server_view.databases.create_title')}>
      {hosts.error ? (
        <p role="alert" className="text-sm text-red-400">
          {t('server_view.databases.hosts_failed', { error: httpErrorToHuman(hosts.error) })}
        </p>
      ) : hosts.isSuccess && hostList.length === 0 ? (
        <p className="text-sm text-zinc-400">{t('server_view.databases.create_host_none')}</p>
      ) : (
        <form
          noValidate
          onSubmit={form.handleSubmit((values) => submit({ ...values, host: values.host || firstHost }))}
          className="space-y-4"
        >
          <div className="grid gap-4 md:grid-cols-3">
            <FormText
              form={form}
              name="database"
              label={t('server_view.databases.create_name')}
              hint={t('server_view.databases.create_name_hint')}
              autoComplete="off"
            />
            <FormText
              form={form}
              name="remote"
              label={t('server_view.databases.create_remote')}
              hint={t('server_view.databases.create_remote_hint')}
              autoComplete="off"
            />
            <FormSelect
              form={form}
              name="host"
              label={t('server_view.databases.create_host')}
              options={hostList.map((h) => ({
                value: String(h.id),
                label: `${h.name} (${h.host}:${h.port})`,
              }))}
              disabled={!hosts.isSuccess}
            />
          </div>
          <OutcomeMessage outcome={outcome} />
          <div className="flex justify-end">
            <Button type="submit" isLoading={isSubmitting} disabled={!hosts.isSuccess}>
              {t('server_view.databases.create')}
            </Button>
          </div>
        </form>
      )}
    </ContentBox>
  );
}
