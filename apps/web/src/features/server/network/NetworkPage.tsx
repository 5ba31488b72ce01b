import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { useGlobalStore } from '../../../app/store.ts';
import { ScreenBlock } from '../../../components/ScreenBlock.tsx';
import { CenteredSpinner } from '../../../components/Spinner.tsx';
import { can } from '../../../lib/shared.ts';
import { useTitle } from '../../../lib/useTitle.ts';
import { useServerStore } from '../store.ts';
import { AllocationRow } from './AllocationRow.tsx';
import { CreateAllocation } from './CreateAllocation.tsx';
import { NETWORK_FLASH } from './flash.ts';
import { useAllocations } from './useAllocations.ts';
import { useNetworkActions } from './useNetworkActions.ts';

/** /server/{id}/network (spec 001 §2 "Network"): the server's allocations. */
export function NetworkPage() {
  const { t } = useTranslation('network');
  const serverName = useServerStore((s) => s.server!.name);
  const limit = useServerStore((s) => s.server!.featureLimits.allocations as number | null);
  const mayCreate = useServerStore((s) => can(s.permissions, 'allocation.create'));
  // With client allocations off the panel refuses every create: the button would only fail.
  const panelCreates = useGlobalStore((s) => s.settings.clientAllocations);
  const allocations = useAllocations();
  const actions = useNetworkActions();
  useTitle(`${serverName} | ${t('title')}`);
  useEffect(() => {
    // A message left from an earlier visit no longer matches what is shown.
    useGlobalStore.getState().clearFlashes(NETWORK_FLASH);
  }, []);

  if (allocations.isPending || (allocations.isError && allocations.isFetching)) return <CenteredSpinner />;
  if (allocations.isError) {
    return (
      <ScreenBlock
        title={t('load_failed')}
        message={httpErrorToHuman(allocations.error)}
        onRetry={() => void allocations.refetch()}
      />
    );
  }
  const list = allocations.data;

  return (
    <div className="space-y-4">
      <FlashMessageRender byKey={NETWORK_FLASH} />
      <ul className="space-y-3" aria-label={t('title')}>
        {list.map((allocation) => (
          <AllocationRow key={allocation.id} allocation={allocation} actions={actions} />
        ))}
      </ul>
      {mayCreate && (
        <CreateAllocation
          used={list.length}
          limit={limit}
          creating={actions.creating}
          canCreate={panelCreates}
          onCreate={() => void actions.create()}
        />
      )}
    </div>
  );
}
