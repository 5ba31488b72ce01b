import { useTranslation } from 'react-i18next';
import { Button } from './Button.tsx';
import { NotFoundIllustration, ServerDownIllustration } from './Illustrations.tsx';

/** Full-page message with an illustration and an optional back or retry action (spec §2). */
export function ScreenBlock({
  title,
  message,
  image = 'server-down',
  onBack,
  onRetry,
  actionLabel,
}: {
  title?: string;
  message: string;
  image?: 'server-down' | 'not-found';
  onBack?: () => void;
  onRetry?: () => void;
  actionLabel?: string;
}) {
  const { t } = useTranslation('common', { useSuspense: false });
  const action = onRetry ?? onBack;
  return (
    <div className="flex w-full justify-center px-4 py-12">
      <div className="w-full max-w-md rounded-lg border border-zinc-800 bg-zinc-900/80 p-8 text-center shadow">
        {image === 'not-found' ? (
          <NotFoundIllustration
            label={t('errors.not_found_image', 'Not found illustration')}
            className="mx-auto h-40 w-52"
          />
        ) : (
          <ServerDownIllustration
            label={t('errors.server_down', 'Server down illustration')}
            className="mx-auto h-40 w-52"
          />
        )}
        <h1 className="mt-6 text-2xl font-bold text-zinc-100">
          {title ?? t('errors.generic_title', 'Something went wrong')}
        </h1>
        <p className="mt-2 text-sm text-zinc-400">{message}</p>
        {action && (
          <Button className="mt-6" variant="secondary" onClick={action}>
            {actionLabel ?? (onRetry ? t('errors.retry', 'Try again') : t('errors.back', 'Go back'))}
          </Button>
        )}
      </div>
    </div>
  );
}

/** The signed-in area's 404 (spec §2). */
export function NotFoundScreen({ onBack, actionLabel }: { onBack?: () => void; actionLabel?: string }) {
  const { t } = useTranslation('common');
  return (
    <ScreenBlock
      title={t('errors.not_found_title')}
      message={t('errors.not_found_message')}
      image="not-found"
      onBack={onBack}
      actionLabel={actionLabel}
    />
  );
}
