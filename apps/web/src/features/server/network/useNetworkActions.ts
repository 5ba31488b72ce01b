import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { httpErrorToHuman } from '../../../api/errors.ts';
import {
  createServerAllocation,
  deleteServerAllocation,
  setPrimaryServerAllocation,
  type Allocation,
} from '../../../api/network.ts';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { useServerStore } from '../store.ts';
import { NETWORK_FLASH } from './flash.ts';
import { allocationsQueryKey } from './useAllocations.ts';

export type NetworkActions = ReturnType<typeof useNetworkActions>;

/**
 * What the Network page does to the list (spec 001 §4, §8): a new primary shows at once and is
 * undone when the panel refuses it; a deleted allocation leaves the list at once, and a refusal
 * shows its message and then reloads the list from the panel so it is right again.
 */
export function useNetworkActions() {
  const serverId = useServerStore((s) => s.server!.id);
  const queryClient = useQueryClient();
  const key = allocationsQueryKey(serverId);
  const [creating, setCreating] = useState(false);
  const update = (fn: (list: Allocation[]) => Allocation[]) =>
    queryClient.setQueryData<Allocation[]>(key, (list) => list && fn(list));
  const clear = () => useGlobalStore.getState().clearFlashes(NETWORK_FLASH);

  const makePrimary = async (allocation: Allocation) => {
    clear();
    await queryClient.cancelQueries({ queryKey: key });
    const previous = queryClient.getQueryData<Allocation[]>(key);
    update((list) => list.map((a) => ({ ...a, isDefault: a.id === allocation.id })));
    try {
      await setPrimaryServerAllocation(serverId, allocation.id);
    } catch (error) {
      queryClient.setQueryData(key, previous);
      flashError(NETWORK_FLASH, httpErrorToHuman(error));
    }
  };

  const remove = async (allocation: Allocation) => {
    clear();
    await queryClient.cancelQueries({ queryKey: key });
    update((list) => list.filter((a) => a.id !== allocation.id));
    try {
      await deleteServerAllocation(serverId, allocation.id);
    } catch (error) {
      flashError(NETWORK_FLASH, httpErrorToHuman(error));
      void queryClient.invalidateQueries({ queryKey: key });
    }
  };

  const create = async () => {
    clear();
    setCreating(true);
    try {
      const created = await createServerAllocation(serverId);
      update((list) => (list.some((a) => a.id === created.id) ? list : [...list, created]));
    } catch (error) {
      flashError(NETWORK_FLASH, httpErrorToHuman(error));
    } finally {
      setCreating(false);
    }
  };

  /** A saved note goes into the list (the row keeps showing what is being typed). */
  const notesSaved = (saved: Allocation) =>
    update((list) => list.map((a) => (a.id === saved.id ? { ...a, notes: saved.notes } : a)));

  return { makePrimary, remove, create, creating, notesSaved };
}
