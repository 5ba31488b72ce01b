import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { HttpError, httpErrorToHuman } from '../../../api/errors.ts';
import { Button } from '../../../components/Button.tsx';
import { MessageBox } from '../../../components/MessageBox.tsx';
import { Spinner } from '../../../components/Spinner.tsx';

/**
 * One item's page (a user, a node…): a spinner while it loads, "not found" for a 404, the error in
 * words with a retry otherwise, and `children(item)` once it is there.
 */
export function ItemLoader<T>({
  query,
  children,
}: {
  query: UseQueryResult<T>;
  children: (item: T) => ReactNode;
}) {
  const { t } = useTranslation('admin');
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.error) {
    const notFound = query.error instanceof HttpError && query.error.status === 404;
    return (
      <MessageBox type="error" title={t('table.error_title')}>
        <span className="flex flex-1 flex-wrap items-center justify-between gap-2">
          <span>{notFound ? t('item.not_found') : httpErrorToHuman(query.error)}</span>
          {!notFound && (
            <Button variant="secondary" onClick={() => void query.refetch()}>
              {t('table.retry')}
            </Button>
          )}
        </span>
      </MessageBox>
    );
  }
  return (
    <div className="flex justify-center py-10">
      <Spinner label={t('table.loading')} />
    </div>
  );
}
