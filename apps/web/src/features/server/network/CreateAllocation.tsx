import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/Button.tsx';

/**
 * The allocation limit (spec 001 §9): 'You are currently using X of Y allowed allocations', and the
 * create button while the count is below the limit and the panel allows client allocations
 * (`canCreate`). Nothing without a limit.
 */
export function CreateAllocation({
  used,
  limit,
  creating,
  canCreate,
  onCreate,
}: {
  used: number;
  limit: number | null;
  creating: boolean;
  canCreate: boolean;
  onCreate: () => void;
}) {
  const { t } = useTranslation('network');
  if (!limit) return null;
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-end sm:gap-6">
      <p className="text-sm text-zinc-400" data-testid="allocation-limit">
        {t('limit', { used, limit })}
      </p>
      {canCreate && used < limit && (
        <Button onClick={onCreate} isLoading={creating} className="w-full sm:w-auto">
          {t('create')}
        </Button>
      )}
    </div>
  );
}
