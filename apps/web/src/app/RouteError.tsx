import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ScreenBlock } from '../components/ScreenBlock.tsx';
import { ChunkLoadError } from '../lib/chunk.ts';

/** The generic error page of any route, including chunks that failed to load (spec §2, §8). */
export function RouteError() {
  const error = useRouteError();
  const navigate = useNavigate();
  const { t } = useTranslation('common', { useSuspense: false });

  if (error instanceof ChunkLoadError) {
    return (
      <ScreenBlock
        title={t('errors.chunk_title', 'Something went wrong')}
        message={t(`errors.chunk_${error.kind}`, error.message)}
        onRetry={() => window.location.reload()}
        actionLabel={t('errors.reload', 'Reload page')}
      />
    );
  }
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <ScreenBlock
        title={t('errors.not_found_title', '404')}
        message={t('errors.not_found_message', 'The requested resource was not found.')}
        image="not-found"
        onBack={() => void navigate(-1)}
      />
    );
  }
  return (
    <ScreenBlock
      message={t('errors.generic_message', 'An unexpected error was encountered while rendering this page.')}
      onRetry={() => window.location.reload()}
    />
  );
}
